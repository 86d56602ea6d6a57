#!/usr/bin/env python3
"""Redis instructions per parked job of dead-letter.lua alone, and per moved entry of
redrive-step.lua alone, on fixed batches (bench/README.md, "Instructions per job").

lua-cost.sh measures the whole failure path through the service, whose batches follow the timing,
so its counts move by up to 10% between runs. This parks CALLS x BATCH jobs with dead-letter.lua as
the service assembles it (the `-- uses lib/...` lines replaced by the libraries, as LuaScripts
does), with records shaped as DeadLetterRecord writes them, then moves them all back with
redrive-step.lua, pages of 200 as TaskSteps asks (a task of everything, running, no canary),
against a private redis-server under callgrind that counts only inside processCommand: the same
scripts give the same counts to a few hundred instructions, so a change to one can be judged by a
difference of 1%.

    bench/script-cost.py [--batch 200] [--calls 20] [--transfer-sizes 1,50]

Needs valgrind and redis-server; prints one line per script.
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

# SCRIPT_COST_LUA: another copy of the scripts (a variant to compare against main's).
LUA = os.environ.get('SCRIPT_COST_LUA') or os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'main',
                                                     'resources', 'lua')
# DeadLetterRecord's fields, in its order, with values like the bench's failing jobs.
RECORD = ['origin-stream', 'bench', 'origin-id', None, 'group', 'redrive', 'consumer', 'w1', 'job', 'bench',
          'failure', 'exhausted', 'error-type', 'bench', 'reason', 'bench handler always fails',
          'fingerprint', '0123456789ab', 'attempts', '3', 'max-attempts', '3',
          'enqueued-at', '2026-12-02T01:00:00.123Z', 'last-attempt-at', '2026-12-02T01:00:00.456Z',
          'dead-at', '2026-12-02T01:00:00.789Z', 'last-attempt-trace', '']
# The record's values each job has of its own (the rest a batch that failed alike shares).
OWN = ['origin-id', 'enqueued-at', 'last-attempt-at']
KEYS = ['bench', '{bench}:dlq', '{bench}:dlq:stats', '{bench}:not-before', '{bench}:dlq:replayed',
        '{bench}:dlq:replayed-at']


def assembled(name, included):
    out = []
    with open(os.path.join(LUA, name)) as f:
        for line in f.read().split('\n'):
            if line.startswith('-- uses '):
                lib = line[len('-- uses '):].strip()
                if lib not in included:
                    included.add(lib)
                    out.append(assembled(lib, included))
            else:
                out.append(line + '\n')
    return ''.join(out)


class Redis:
    def __init__(self, port):
        self.sock = socket.create_connection(('127.0.0.1', port))
        self.file = self.sock.makefile('rb')

    def call(self, *args):
        parts = [b'*%d\r\n' % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            parts.append(b'$%d\r\n%s\r\n' % (len(a), a))
        self.sock.sendall(b''.join(parts))
        reply = self.read()
        if isinstance(reply, Exception):
            raise reply
        return reply

    def read(self):
        line = self.file.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b'-':
            return Exception(rest.decode())
        if kind in b'+:':
            return rest
        if kind == b'$':
            n = int(rest)
            return None if n < 0 else self.file.read(n + 2)[:-2]
        n = int(rest)
        return None if n < 0 else [self.read() for _ in range(n)]


def free_port(port):
    while True:
        with socket.socket() as s:
            if s.connect_ex(('127.0.0.1', port)) != 0:
                return port
        port += 1


def per(dump, n, what):
    report = subprocess.run(['callgrind_annotate', '--inclusive=yes', dump], capture_output=True, text=True).stdout
    total = int(re.search(r'([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS', report).group(1).replace(',', ''))
    xadd = re.search(r'([\d,]+) \(\s*[\d.]+%\)\s+\S*xaddCommand', report)
    xadd = int(xadd.group(1).replace(',', '')) if xadd else 0
    return '%.1fk instructions per %s (of them XADD %.1fk)' % (total / n / 1000, what, xadd / n / 1000)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--batch', type=int, default=200)
    ap.add_argument('--calls', type=int, default=20)
    ap.add_argument('--transfer-sizes', default='1,50', help='ids per call of transfer.lua, comma-separated')
    o = ap.parse_args()
    port = free_port(6470)
    work = tempfile.mkdtemp(prefix='park-cost-')
    out = os.path.join(work, 'callgrind.out')
    server = subprocess.Popen(['valgrind', '--tool=callgrind', '--toggle-collect=processCommand',
                               '--callgrind-out-file=' + out, 'redis-server', '--port', str(port), '--save', '',
                               '--appendonly', 'no', '--dir', work],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                r = Redis(port)
                r.call('PING')
                break
            except OSError:
                time.sleep(0.1)
        n = o.batch * o.calls
        sha = r.call('SCRIPT', 'LOAD', assembled('dead-letter.lua', set())).decode()
        r.call('EVAL', "for i = 1, tonumber(ARGV[1]) do redis.call('XADD', KEYS[1], '*', 'payload', "
               "'{\"job\":' .. i .. '}') end", 1, 'bench', n)
        r.call('XGROUP', 'CREATE', 'bench', 'redrive', '0')
        ids = []
        while len(ids) < n:
            ids += [e[0].decode() for e in r.call('XREADGROUP', 'GROUP', 'redrive', 'w1', 'COUNT', 1000,
                                                  'STREAMS', 'bench', '>')[0][1]]
        subprocess.run(['callgrind_control', '-z', str(server.pid)], capture_output=True, check=True)
        for c in range(o.calls):
            # dead-letter.lua's ARGV (its header) as DeadLetterScripts.parkArguments sends a batch
            # that failed alike: group, forget-before, one shape (kind, fingerprint, its text, the
            # record with the values each job has of its own left empty, their places), then per job
            # its id, its shape and those values (its id, when it was enqueued and last attempted).
            places = [RECORD.index(name) + 2 for name in OWN]
            shape = ['' if i + 1 in places else v for i, v in enumerate(RECORD)]
            args = ['EVALSHA', sha, len(KEYS)] + KEYS + ['redrive', '0', 1, 'exhausted', '0123456789ab',
                                                       'bench: always fails', len(shape)] + shape
            args += [len(places)] + places
            for k, id in enumerate(ids[c * o.batch:(c + 1) * o.batch]):
                args += [id, 1, id, '2026-12-02T01:00:%02d.%03dZ' % (k % 60, k % 1000), '2026-12-02T01:00:00.456Z']
            for reply in r.call(*args):
                if reply[0] != b'parked':
                    sys.exit('not parked: %r' % reply)
        subprocess.run(['callgrind_control', '-d', 'parked', str(server.pid)], capture_output=True, check=True)
        print('dead-letter.lua: %d jobs in calls of %d: %s' % (n, o.batch, per(out + '.1', n, 'parked job')))
        # A redrive task of everything parked, as RedriveTasks leaves it for its runner.
        dlq = KEYS[1]
        last = r.call('XREVRANGE', dlq, '+', '-', 'COUNT', 1)[0][0]
        task, canary = '{bench}:dlq:redrive:t1', '{bench}:dlq:redrive:t1:canary'
        r.call('HSET', task, 'state', 'running', 'owner', 'runner', 'until', last, 'canary', 0)
        step = r.call('SCRIPT', 'LOAD', assembled('redrive-step.lua', set())).decode()
        # KEYS: the dead-letter stream, its stats, audit, the task, its canary list, the replay
        # ledger and its times, and the one origin it may write to.
        keys = [dlq, KEYS[2], '{bench}:dlq:audit', task, canary, KEYS[4], KEYS[5], 'bench']
        subprocess.run(['callgrind_control', '-z', str(server.pid)], capture_output=True, check=True)
        moved = 0
        while True:
            # redrive-step.lua's ARGV (its header): the filter (8 items, '' = any), runner, who,
            # when, note, task id, entries to examine, entries to move, traceparent.
            reply = r.call('EVALSHA', step, len(keys), *keys, *([''] * 8), 'runner', 'bench', '2026-12-02T01:00:00Z',
                           '', 't1', 200, 200, '')
            if reply[0] != b'ok':
                sys.exit('redrive-step.lua: %r' % reply)
            moved += int(reply[2])
            if int(reply[1]) == 1:
                break
        subprocess.run(['callgrind_control', '-d', 'replayed', str(server.pid)], capture_output=True, check=True)
        if moved != n or int(r.call('XLEN', dlq)) != 0:
            sys.exit('redrive-step.lua moved %d of %d' % (moved, n))
        print('redrive-step.lua: %d entries in pages of 200: %s' % (n, per(out + '.2', n, 'moved entry')))
        # transfer.lua as an immediate retry asks it (the next attempt counted, to the same
        # consumer), on the failure path's batch sizes: one job, and a turn's worth.
        xfer = r.call('SCRIPT', 'LOAD', assembled('transfer.lua', set())).decode()
        r.call('XGROUP', 'CREATE', 'xfer', 'redrive', '0', 'MKSTREAM')
        r.call('EVAL', "for i = 1, tonumber(ARGV[1]) do redis.call('XADD', KEYS[1], '*', 'payload', "
               "'{\"job\":' .. i .. '}') end", 1, 'xfer', n)
        xids = []
        while len(xids) < n:
            xids += [e[0].decode() for e in r.call('XREADGROUP', 'GROUP', 'redrive', 'w1', 'COUNT', 1000,
                                                   'STREAMS', 'xfer', '>')[0][1]]
        dump = 3
        for size in [int(x) for x in o.transfer_sizes.split(',')]:
            subprocess.run(['callgrind_control', '-z', str(server.pid)], capture_output=True, check=True)
            for c in range(0, n, size):
                args = ['EVALSHA', xfer, 2, 'xfer', '{xfer}:not-before', 'redrive', 'w1', 2]
                for id in xids[c:c + size]:
                    args += [id, -1]
                if r.call(*args) != []:
                    sys.exit('transfer.lua answered trimmed entries')
            subprocess.run(['callgrind_control', '-d', 'transfer%d' % size, str(server.pid)], capture_output=True,
                           check=True)
            print('transfer.lua: %d ids in calls of %d: %s' % (n, size, per(out + '.%d' % dump, n, 'id')))
            dump += 1
    finally:
        try:
            Redis(port).call('SHUTDOWN', 'NOSAVE')
        except Exception:
            pass
        server.wait(timeout=60)


if __name__ == '__main__':
    main()
