# Helpers for the end-to-end case tests (sourced by tests/cases/*/runTest).
# Each test builds its case in a fresh temporary directory.

fails=0
check() { # name, condition (evaluated)
    if eval "$2"; then echo "  ok   $1"; else echo "  FAIL $1"; fails=$((fails + 1)); fi
}

# finishBoxCase <dir>: the system/ files the dry solver needs beside a
# blockMeshDict, and the mesh
finishBoxCase() {
    local dir=$1
    cat > "$dir/system/fvSchemes" <<'DICT'
FoamFile { version 2.0; format ascii; class dictionary; object fvSchemes; }
ddtSchemes { default Euler; } gradSchemes { default Gauss linear; } divSchemes { default none; }
laplacianSchemes { default Gauss linear corrected; } interpolationSchemes { default linear; }
snGradSchemes { default corrected; }
DICT
    echo 'FoamFile { version 2.0; format ascii; class dictionary; object fvSolution; }' > "$dir/system/fvSolution"
    writeControlDict "$dir" 1e-5 0.001 0.001   # tests set their own afterwards
    (cd "$dir" && blockMesh > log.blockMesh 2>&1) || { echo "blockMesh failed"; cat "$dir/log.blockMesh"; exit 1; }
}

# makeBoxCase <dir> <xmax> <ymax> <zmax> <nx> <ny> <nz>: closed box [0, max]
# with all six sides one wall patch, and the system/ files the solver needs.
makeBoxCase() {
    local dir=$1 X=$2 Y=$3 Z=$4 nx=$5 ny=$6 nz=$7
    mkdir -p "$dir/system" "$dir/constant"
    cat > "$dir/system/blockMeshDict" <<DICT
FoamFile { version 2.0; format ascii; class dictionary; object blockMeshDict; }
scale 1;
vertices ( (0 0 0) ($X 0 0) ($X $Y 0) (0 $Y 0) (0 0 $Z) ($X 0 $Z) ($X $Y $Z) (0 $Y $Z) );
blocks ( hex (0 1 2 3 4 5 6 7) ($nx $ny $nz) simpleGrading (1 1 1) );
boundary ( walls { type wall; faces ( (0 3 2 1) (4 5 6 7) (0 1 5 4) (2 3 7 6) (0 4 7 3) (1 2 6 5) ); } );
DICT
    finishBoxCase "$dir"
}

# makePeriodicBoxCase <dir> <origin> <X> <Y> <Z> <nx> <ny> <nz> <axes>: the box
# [origin, origin + (X, Y, Z)] with a cyclic patch pair across each axis
# named in <axes> (any of x, y, z) and walls on the other sides
makePeriodicBoxCase() {
    local dir=$1 o=$2 nx=$6 ny=$7 nz=$8 axes=$9
    local X Y Z
    X=$(/usr/bin/python3 -c "print($o + $3)"); Y=$(/usr/bin/python3 -c "print($o + $4)"); Z=$(/usr/bin/python3 -c "print($o + $5)")
    local boundary="" walls=""
    local -A low=([x]="(0 4 7 3)" [y]="(0 1 5 4)" [z]="(0 3 2 1)") high=([x]="(1 2 6 5)" [y]="(2 3 7 6)" [z]="(4 5 6 7)")
    for a in x y z; do
        if [[ $axes == *$a* ]]; then
            boundary+=" periodic${a}0 { type cyclic; neighbourPatch periodic${a}1; faces ( ${low[$a]} ); }"
            boundary+=" periodic${a}1 { type cyclic; neighbourPatch periodic${a}0; faces ( ${high[$a]} ); }"
        else
            walls+=" ${low[$a]} ${high[$a]}"
        fi
    done
    [ -n "$walls" ] && boundary+=" walls { type wall; faces ( $walls ); }"
    mkdir -p "$dir/system" "$dir/constant"
    cat > "$dir/system/blockMeshDict" <<DICT
FoamFile { version 2.0; format ascii; class dictionary; object blockMeshDict; }
scale 1;
vertices ( ($o $o $o) ($X $o $o) ($X $Y $o) ($o $Y $o) ($o $o $Z) ($X $o $Z) ($X $Y $Z) ($o $Y $Z) );
blocks ( hex (0 1 2 3 4 5 6 7) ($nx $ny $nz) simpleGrading (1 1 1) );
boundary ( $boundary );
DICT
    finishBoxCase "$dir"
}

# writeControlDict <dir> <deltaT> <endTime> <writeInterval> [writeFormat] [writePrecision]
writeControlDict() {
    cat > "$1/system/controlDict" <<DICT
FoamFile { version 2.0; format ascii; class dictionary; object controlDict; }
application superellipsoidDEMFoam;
startFrom latestTime; startTime 0; stopAt endTime; endTime $3; deltaT $2;
writeControl runTime; writeInterval $4; writeFormat ${5:-ascii}; writePrecision ${6:-17};
writeCompression off; timeFormat general; timePrecision 10; runTimeModifiable false;
DICT
}

# writeGravity <dir> <gx> <gy> <gz>
writeGravity() {
    cat > "$1/constant/g" <<DICT
FoamFile { version 2.0; format ascii; class uniformDimensionedVectorField; object g; }
dimensions [0 1 -2 0 0 0 0];
value ($2 $3 $4);
DICT
}

# jsonValue <file> <key>: a top-level number of a JSON file
jsonValue() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

# runIn <dir> <log> <command...>: the command in <dir>, its output in
# <dir>/<log>; on failure the log's tail and a non-zero status. Two
# independent serial runs of a decomposed test go side by side as
# `runIn a ... & runIn b ... & waitAll`: the test runs alone, so the two
# cores are its own.
runIn() {
    local dir=$1 log=$2; shift 2
    (cd "$dir" && "$@" > "$log" 2>&1 < /dev/null) || { tail -20 "$dir/$log"; return 1; }
}
# waitAll: waits for every background job of the test; fails if any failed
waitAll() {
    local rc=0 job
    for job in $(jobs -p); do wait "$job" || rc=1; done
    return $rc
}
