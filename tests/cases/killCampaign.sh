# The kill -9 campaign (sourced by tests/cases/killDuringWrite and
# tests/cloud/killDuringWrite): 20 kills at random moments of a run that
# writes every step; after each, a short restart must continue from the
# latest complete time, or stop naming the half-written time and continue
# once that time is deleted; no earlier time may change and the run must
# end with every particle.
#   killCampaign <case> <solver> <summary json> <particle-count key> <count> <deltaT>
killCampaign() {
local case=$1 solver=$2 summary=$3 key=$4 count=$5 dt=$6
latest() { (cd "$case" && ls -d [0-9]* | sort -g | tail -1); }
first() { (cd "$case" && ls -d [0-9]* | sort -g | head -1); }
# every file of the times strictly before $1, with size and modification
# time to the nanosecond (a rewrite changes it; cheaper than hashing the
# hundreds of times a run writing every step leaves)
before() { (cd "$case" && find [0-9]* -type f -printf '%p %s %T@\n' \
    | awk -v b="$1" '{ split($1, p, "/"); if (p[1] + 0 < b + 0) print }' | sort); }
# After each round (its check done) only the latest 3 times are kept: a run
# writing every step leaves thousands
prune() { (cd "$case" && ls -d [0-9]* | sort -g | head -n -3 | xargs -r rm -rf); }
RANDOM=7
local kills=0 continued=0 refused=0 bad=0 k pid t snap rc n
for k in $(seq 20); do
    (cd "$case" && exec $solver > "log.$k" 2>&1) &
    pid=$!
    # 0.3 .. 1.5 s: start-up included, so some kills land early
    sleep "$(printf '0.%d' $((3 + RANDOM % 9)))$( [ $((RANDOM % 3)) -eq 0 ] && echo 5)"
    kill -9 $pid 2>/dev/null && kills=$((kills + 1)); wait $pid 2>/dev/null
    t=$(latest); snap=$(before "$t")
    # a short restart: 5 more steps from wherever it starts
    sed -i -E "s/endTime [^;]+;/endTime $(/usr/bin/python3 -c "print(round($t + 5 * $dt, 10))");/" "$case/system/controlDict"
    (cd "$case" && $solver > log.restart 2>&1); rc=$?
    if [ $rc -ne 0 ]; then
        if grep -q "its write was not completed" "$case/log.restart" && grep -q "delete time $t" "$case/log.restart"; then
            refused=$((refused + 1))
            # as the message says: a later time is deleted, the initial
            # time loses only what the run wrote into it
            if [ "$t" = "$(first)" ]; then rm -rf "${case:?}/$t/lagrangian" "${case:?}/$t/uniform"
            else rm -rf "${case:?}/${t:?}"; fi
            t=$(latest); snap=$(before "$t")
            sed -i -E "s/endTime [^;]+;/endTime $(/usr/bin/python3 -c "print(round($t + 5 * $dt, 10))");/" "$case/system/controlDict"
            (cd "$case" && $solver > log.restart 2>&1); rc=$?
        fi
    else
        continued=$((continued + 1))
    fi
    n=$(grep -oE "\"$key\": [0-9]+" "$case/postProcessing/$summary" 2>/dev/null | grep -oE '[0-9]+$')
    if [ $rc -ne 0 ] || [ "$(before "$t")" != "$snap" ] || [ "${n:-0}" != "$count" ]; then
        bad=$((bad + 1)); echo "  kill $k at time $t: restart rc $rc, particles ${n:-?}"; [ -n "${KILL_DEBUG:-}" ] && (cd "$case" && cat writeInProgress; for d in $(ls -d [0-9]* | sort -g | tail -3); do echo "$d: $(ls $d | tr "\n" " ")"; done; cat log.$k | tail -20); grep -A4 "FATAL" "$case/log.restart" | head -8
    fi
    sed -i -E "s/endTime [^;]+;/endTime 10;/" "$case/system/controlDict"
    prune
done
echo "  $kills kills: $continued restarts continued at once, $refused refused a half-written time first"
check "20 kills" "[ $kills -eq 20 ]"
check "every restart continued from a complete time, earlier times unchanged, $count particles" "[ $bad -eq 0 ]"
}
