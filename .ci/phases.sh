# Phase times for .ci/run (issue 26: the run's budget is watched phase by phase). Sourced, not run.
#   phase NAME command...   runs the command, records how long it took, returns its status
#   print_phases            one line per phase in the order they ran, then the total
# ci_now gives the time in whole seconds; scripts/ci-phases.test.ts redefines it to move a clock of its own.
ci_now() { date +%s; }

CI_PHASE_NAMES=()
CI_PHASE_SECONDS=()

phase() { # name, command...
  local name=$1
  shift
  local started status
  started=$(ci_now)
  "$@"
  status=$?
  CI_PHASE_NAMES+=("$name")
  CI_PHASE_SECONDS+=($(($(ci_now) - started)))
  return "$status"
}

ci_duration() { # seconds -> "12m05s"
  printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

print_phases() {
  local i total=0
  echo "phase times:"
  for i in "${!CI_PHASE_NAMES[@]}"; do
    printf '  %-12s %9s\n' "${CI_PHASE_NAMES[$i]}" "$(ci_duration "${CI_PHASE_SECONDS[$i]}")"
    total=$((total + CI_PHASE_SECONDS[i]))
  done
  printf '  %-12s %9s\n' "total" "$(ci_duration "$total")"
}
