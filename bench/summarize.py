#!/usr/bin/env python3
"""Summary table of bench/run.sh's JSON lines, with the issue-6 targets (see bench/README.md)."""
import json
import statistics
import sys

RAW_JVM = 220_000      # peers: jvm/RawDrain.java after warm-up (the ceiling), issue 6
BULLMQ_FAIL = 800      # peers: BullMQ into the failed set with 3 attempts, issue 6

rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["name"], []).append(r)

print()
print(f"{'measurement':<72} {'runs':>4} {'jobs':>8} {'s (med)':>8} {'jobs/s med':>10} {'best':>8} "
      f"{'redis us/job':>12} {'RSS MB':>7}")
print("-" * 136)
for name, rs in by.items():
    if "jobs_per_s" not in rs[0]:
        continue
    v = [r["jobs_per_s"] for r in rs]
    cpu = [r["redis_cpu_us_per_job"] for r in rs if "redis_cpu_us_per_job" in r]
    rss = [r.get("service_rss_peak_mb", r.get("client_rss_peak_mb", 0)) for r in rs]
    print(f"{name[:72]:<72} {len(rs):>4} {rs[0]['jobs']:>8} {statistics.median(r['seconds'] for r in rs):>8.3f} "
          f"{statistics.median(v):>10.0f} {max(v):>8} {(statistics.median(cpu) if cpu else float('nan')):>12.2f} "
          f"{max(rss):>7.1f}")

def med(prefix, key="jobs_per_s"):
    rs = [r for r in rows if r["name"].startswith(prefix) and key in r]
    return statistics.median(r[key] for r in rs) if rs else None

print()
print("targets (issue 6; the raw JVM drain is taken as 220,000/s, BullMQ's failure path as 800/s):")
def line(what, value, target, ok, unit=""):
    if value is None:
        print(f"  {what:<58} not measured")
    else:
        print(f"  {what:<58} {value:>10,.1f}{unit}  target {target:<16} {'MET' if ok else 'MISSED'}")
def row(what, shown, target, ok, more=""):
    """A target line whose figure is shown as given (several figures, or a unit after it)."""
    print(f"  {what:<58} {shown}  {target}  {'MET' if ok else 'MISSED'}{more}")

s = med("success path")
line("success path jobs/s (>= 50% of raw JVM drain)", s, ">= 110,000", s is not None and s >= RAW_JVM / 2)
c = med("success path", "redis_cpu_us_per_job")
line("success path Redis CPU us/job", c, "<= 10", c is not None and c <= 10)
f = med("failure path")
line("failure path jobs/s into the DLQ (>= 10x BullMQ)", f, ">= 8,000", f is not None and f >= 10 * BULLMQ_FAIL)
rp = [r for r in rows if r["name"].startswith("bulk replay")]
if rp and "not_measured" in rp[0]:
    print(f"  {'bulk replay entries/s':<58} not measured: {rp[0]['not_measured']}")
else:
    v = med("bulk replay")
    line("bulk replay entries/s", v, ">= 30,000", v is not None and v >= 30_000)
    if rp:
        print(f"  {'':<58} task {rp[-1].get('state')}, moved {rp[-1].get('moved')} of {rp[-1].get('asked')}; {rp[-1].get('rate')}")
lat = [r for r in rows if r["name"].startswith("latency")]
if lat:
    r = lat[-1]
    row('latency p50 / p99 / p999 ms at ' + str(r.get('offered_per_s')) + '/s',
        f"{r.get('p50_ms')} / {r.get('p99_ms')} / {r.get('p999_ms')}", "target p99 <= 5 ms",
        r.get('p99_ms') is not None and r['p99_ms'] <= 5)
g = [r for r in rows if r["name"].startswith("cost growth: median")]
if g:
    ch = g[-1]["change_pct"]
    line("cost growth: throughput change % (>= -10%)", ch, ">= -10 %", ch >= -10, " %")
rss = max((r["service_rss_peak_mb"] for r in rows if r["name"].startswith("success path")), default=None)
line("service peak RSS MB under the success path", rss, "<= 256", rss is not None and rss <= 256)
h = med("HTTP handler")
if h is not None:
    print(f"  {'HTTP handler jobs/s (no target; cost of the outbound call)':<58} {h:>10,.1f}"
          + (f"  = {h / s:.0%} of the no-op success path" if s else ""))

for r in rows:
    if r["name"].startswith("console "):
        row(r['name'][:58], f"p50 {r['p50_ms']} / p95 {r['p95_ms']} ms", f"target < {r['target_ms']} ms", r['met'])
# issue 12 (Scale): many queues, idle, retry punctuality, HTTP ceiling
scale = [r for r in rows if r["name"].startswith(("many queues", "idle:", "retry punctuality", "HTTP handler vs",
                                                  "raw Lua replay"))]
if scale or f is not None:
    print()
    print("targets (issue 12):")
if f is not None:
    fc = med("failure path", "redis_cpu_us_per_job")
    line("failure path Redis CPU us per failed job", fc, "<= 20", fc <= 20)
    print(f"  {'failure path vs BullMQ (>= 10x in the same run)':<58} see the peers' run (bench/run.sh --peers)")
for r in rows:
    if r["name"].startswith("many queues"):
        ratio = r.get("p50_vs_1_queue")
        row(str(r['queues']) + ' queues: drain of ' + str(r['burst_jobs']) + ' p50 / max ms',
            f"{r['drain_ms_p50']:>7} / {r['drain_ms_max']}", f"x{ratio} of 1 queue (target <= 2)",
            ratio is not None and ratio <= 2, f"; {r['service_connections']} connections, {r['service_rss_mb']} MB")
    elif r["name"].startswith("idle:"):
        v = r["commands_per_s_per_queue_beyond_blocking_read"]
        row(str(r['queues']) + ' idle queues: commands/s per queue', f"{v:>10}", "target about <= 1", v <= 1,
            f"; {r['commands_per_s']} commands/s, Redis {r['redis_cpu_ms_per_s']} ms CPU/s")
    elif r["name"].startswith("retry punctuality"):
        p = r.get("lateness_p99_ms")
        row('retry lateness p50 / p99 / max ms', f"{r.get('lateness_p50_ms')} / {p} / {r.get('lateness_max_ms')}",
            "target p99 <= 20 ms", p is not None and p <= 20)
    elif r["name"].startswith("raw Lua replay"):
        v = r["redrive_vs_raw_pct"]
        row('bulk replay / raw Lua replay right beside it', f"{v:>9} %", "target >= 50 %", v >= 50,
            f" (raw {r['jobs_per_s']} entries/s)")
    elif r["name"].startswith("HTTP handler vs"):
        row('HTTP handler / HTTP ceiling', f"{r['ratio_pct']:>9} %", "target >= 60 %", r['ratio_pct'] >= 60,
            f" ({r['handler_jobs_per_s']} vs {r['ceiling_jobs_per_s']} jobs/s)")

# issue 27: the tracing line (Traced)
for r in by.get("tracing cost: medians of each (target: extra CPU per traced job <= 1.5x the floor, nothing dropped; "
                "ratio 0.1 >= 95% of untraced)", []):
    f = r.get("extra_vs_floor")
    print(f"  tracing: extra CPU per traced job {r['extra_cpu_us_per_traced_job']} us, SDK floor "
          f"{r.get('floor_cpu_us_per_span')} us/span = {f}x (target <= 1.5x) {'MET' if f is not None and f <= 1.5 else 'MISSED'}; "
          f"spans dropped {r['spans_dropped_traced_reps']}; ratio 0.1 at {r['ratio01_share_pct']}% of untraced "
          f"(target >= 95%) {'MET' if r['ratio01_share_pct'] >= 95 else 'MISSED'}; sampler 1.0 at {r['traced_share_pct']}%")
