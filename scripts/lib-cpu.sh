# Sourced by the load benches: server CPU time per request, read from /proc.

# CPU time (user + system, clock ticks) used so far by the processes "$@", all threads.
cpu_ticks() {
    local total=0 pid
    for pid in "$@"; do
        total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat")))
    done
    echo "$total"
}

# User-mode CPU time (clock ticks) used so far by the process "$1", all threads.
user_ticks() {
    awk '{ print $14 }' "/proc/$1/stat"
}

# cpu_per_request TICKS RPS SECONDS: microseconds of CPU per request over a run.
cpu_per_request() {
    awk -v ticks="$1" -v hz="$(getconf CLK_TCK)" -v rps="$2" -v secs="${3%s}" \
        'BEGIN { printf "%.1f", ticks / hz * 1e6 / (rps * secs) }'
}

# The CPU model and how many CPUs there are, for the first line of a bench's output: a
# ratio to a baseline holds only for the machine it was read on (docs/performance.md).
host_line() {
    local model
    model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
    echo "${model:-an unknown CPU}, $(nproc) CPUs"
}
