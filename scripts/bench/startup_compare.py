#!/usr/bin/env python3
"""Start-up of atpad against nano, interleaved: the time from spawn to the last output
before the screen stays quiet (30 ms), on an empty file in a 40×120 pty, 15 runs each,
with a fresh HOME and XDG folders per run (as tui_latency.py does).

    swift build -c release --static-swift-stdlib --product atpad --scratch-path .build-static
    python3 scripts/bench/startup_compare.py

or, for an installed atpad (scripts/install --prefix DIR), its binary:

    python3 scripts/bench/startup_compare.py DIR/bin/atpad [OTHER/bin/atpad ...]

(STARTUP_RUNS=N for more than 15 interleaved runs.)
"""
import os, sys, time, select, ptyprocess, statistics, tempfile
def last_out(argv):
    d = tempfile.mkdtemp()
    env = dict(os.environ, TERM='xterm-256color', HOME=d, XDG_STATE_HOME=d+'/s', XDG_CONFIG_HOME=d+'/c', LC_ALL='C.UTF-8')
    f = os.path.join(d, 'empty.txt'); open(f,'w').close()
    t0 = time.perf_counter()
    p = ptyprocess.PtyProcess.spawn(argv + [f], dimensions=(40,120), env=env, cwd=d)
    os.set_blocking(p.fd, False)
    last = None; quiet_until = None
    while True:
        r,_,_ = select.select([p.fd],[],[],0.03)
        if r:
            try: os.read(p.fd, 1<<20); last = time.perf_counter()
            except OSError: break
        elif last is not None: break
    p.terminate(force=True)
    return (last - t0) * 1000
# One or more atpad binaries, each interleaved with nano in the same run (compare ratios
# within one run: this machine is noisy).
BINARIES = sys.argv[1:] or [os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..', '..', '.build-static', 'release', 'atpad')]
RUNS = int(os.environ.get('STARTUP_RUNS', '15'))
res = {'nano': []}
for b in BINARIES: res[b] = []
for i in range(RUNS):
    res['nano'].append(last_out(['nano']))
    for b in BINARIES: res[b].append(last_out([b]))
nano = statistics.median(res['nano'])
for k, v in res.items():
    print(k, 'median %.1f ms' % statistics.median(v), 'min %.1f' % min(v),
          '' if k == 'nano' else 'ratio of medians %.2f' % (statistics.median(v) / nano))
