# Helpers for the cloud case tests (sourced by tests/cloud/*/runTest after
# ../../cases/caseTools.sh). A case is a closed box of fluid with all sides
# one wall patch, run by superellipsoidParcelFoam.

# makeFluidBoxCase <dir> <X> <Y> <Z> <nx> <ny> <nz> <rho> <nu>
makeFluidBoxCase() {
    local dir=$1 rho=$8 nu=$9
    makeBoxCase "$@"
    cat > "$dir/system/fvSchemes" <<'DICT'
FoamFile { version 2.0; format ascii; class dictionary; object fvSchemes; }
ddtSchemes { default Euler; }
gradSchemes { default Gauss linear; }
divSchemes { default none; div(alphaPhic,U) Gauss linear; div(((alphac*nuEff)*dev2(T(grad(U))))) Gauss linear; }
laplacianSchemes { default Gauss linear corrected; }
interpolationSchemes { default linear; }
snGradSchemes { default corrected; }
DICT
    cat > "$dir/system/fvSolution" <<'DICT'
FoamFile { version 2.0; format ascii; class dictionary; object fvSolution; }
solvers
{
    p { solver PCG; preconditioner DIC; tolerance 1e-10; relTol 0; }
    pFinal { $p; }
    U { solver smoothSolver; smoother symGaussSeidel; tolerance 1e-10; relTol 0; }
    UFinal { $U; }
}
PIMPLE { nOuterCorrectors 1; nCorrectors 2; nNonOrthogonalCorrectors 0; pRefCell 0; pRefValue 0; momentumPredictor yes; }
DICT
    mkdir -p "$dir/0"
    cat > "$dir/0/U" <<'DICT'
FoamFile { version 2.0; format ascii; class volVectorField; object U; }
dimensions [0 1 -1 0 0 0 0];
internalField uniform (0 0 0);
boundaryField { walls { type noSlip; } }
DICT
    cat > "$dir/0/p" <<'DICT'
FoamFile { version 2.0; format ascii; class volScalarField; object p; }
dimensions [0 2 -2 0 0 0 0];
internalField uniform 0;
boundaryField { walls { type zeroGradient; } }
DICT
    cat > "$dir/constant/transportProperties" <<DICT
FoamFile { version 2.0; format ascii; class dictionary; object transportProperties; }
transportModel Newtonian;
nu [0 2 -1 0 0 0 0] $nu;
rho [1 -3 0 0 0 0 0] $rho;
DICT
    cat > "$dir/constant/turbulenceProperties" <<'DICT'
FoamFile { version 2.0; format ascii; class dictionary; object turbulenceProperties; }
simulationType laminar;
DICT
    sed -i 's/application superellipsoidDEMFoam;/application superellipsoidParcelFoam;/' "$dir/system/controlDict"
}

# makePeriodicFluidBoxCase <dir> <origin> <X> <Y> <Z> <nx> <ny> <nz> <axes> <rho> <nu>:
# the fluid box of makeFluidBoxCase with cyclic patch pairs across <axes>
# (caseTools.sh, makePeriodicBoxCase)
makePeriodicFluidBoxCase() {
    local dir=$1
    makePeriodicBoxCase "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9"
    local rho=${10} nu=${11}
    cp "$dir/system/blockMeshDict" "$dir/blockMeshDict.periodic"
    # the fluid files of a closed box, then the periodic mesh and conditions
    makeFluidBoxCase "$dir" 1 1 1 1 1 1 "$rho" "$nu"
    mv "$dir/blockMeshDict.periodic" "$dir/system/blockMeshDict"
    (cd "$dir" && blockMesh > log.blockMesh 2>&1) || { echo "blockMesh failed"; cat "$dir/log.blockMesh"; exit 1; }
    sed -i 's/boundaryField { walls { type noSlip; } }/boundaryField { walls { type noSlip; } "periodic.*" { type cyclic; } }/' "$dir/0/U"
    sed -i 's/boundaryField { walls { type zeroGradient; } }/boundaryField { walls { type zeroGradient; } "periodic.*" { type cyclic; } }/' "$dir/0/p"
}

# writeCloudProperties <dir> <coupled true|false> <particleTypes> <forces> <collision> <injectionModels>
# The other entries are the stock ones a superellipsoid cloud needs.
writeCloudProperties() {
    cat > "$1/constant/particleCloudProperties" <<DICT
FoamFile { version 2.0; format ascii; class dictionary; object particleCloudProperties; }
solution
{
    active true; coupled $2; transient yes; cellValueSourceCorrection off; maxCo 1;
    volumeFraction ${VOLUME_FRACTION:-false};
    sourceTerms { schemes { U explicit 1; } }
    interpolationSchemes { rhoc cell; U cellPoint; muc cell; }
    integrationSchemes { U Euler; }
}
constantProperties { particleTypes { $3 } }
subModels
{
    particleForces {}
    superellipsoidForces { $4 }
    superellipsoidCollision { $5 }
    injectionModels { $6 }
    dispersionModel none;
    patchInteractionModel none;
    stochasticCollisionModel none;
    surfaceFilmModel none;
}
cloudFunctions {}
DICT
}

# cloudField <case> <time> <field>: the values of a written cloud field, one
# row per particle (bin/sefCloudField.py)
cloudField() { /usr/bin/python3 "$SEF_ROOT/bin/sefCloudField.py" "$@"; }
