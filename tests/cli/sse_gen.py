#!/usr/bin/env python3
"""Writes a curl -i capture of an MCP event stream to standard output, generated on the fly
(never stored): the response head, a priming event, EVENTS progress notifications (each with an
`id`; without --mixed or --delay, blocks of 1000 events with ids 1..1000 repeated), then, unless --no-final, the tools/call response. --mixed puts in what a whole-stream
parse must carry from event to event (a `retry`, a comment, an event of another type, an event
that is not JSON, a log message, an `id:` line alone, a block starting with a BOM) and ends with a
tail cut inside an event. --delay SECONDS sleeps before each event and prints to standard error
the time (`date +%s.%N` style) each event was written, one line per event: `T EVENT_NUMBER`.
Usage: sse_gen.py EVENTS [--no-final] [--mixed] [--delay S] [--method M]"""
import argparse
import signal
import sys
import time

signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that went away ends the generator quietly

ap = argparse.ArgumentParser()
ap.add_argument("events", type=int)
ap.add_argument("--no-final", action="store_true")
ap.add_argument("--mixed", action="store_true")
ap.add_argument("--delay", type=float, default=0.0)
ap.add_argument("--method", default="tools/call")
a = ap.parse_args()
out = sys.stdout.buffer


def progress(k):
    return ('id: %d\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t",'
            '"progress":%d,"total":%d,"message":"step %d"}}\n\n' % (k, k, a.events, k))


def mixed(k):
    """Event k of a --mixed stream: mostly progress, every 97th something else."""
    r = k % 97
    if r == 1:
        return "retry: %d\n: keep-alive\n\n" % (1000 + k)
    if r == 2:
        return 'event: other\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n'
    if r == 3:
        return "data: not json %d\n\n" % k
    if r == 4:
        return 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"log %d"}}\n\n' % k
    if r == 5:
        return "id: \n\n"  # resets the last event id
    if r == 6:
        return "\ufeffdata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"t\",\"progress\":%d}}\n\n" % k
    return progress(k)


def stamp(k):
    if a.delay:
        sys.stderr.write("%.6f %d\n" % (time.time(), k))
        sys.stderr.flush()


out.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n")
out.write(b"id: 0\ndata:\n\n")  # the priming event (2025-11-25)
out.flush()
make = mixed if a.mixed else progress
if not a.mixed and not a.delay:
    # Fast enough for ten million events: one block of 1000 events written again and again
    # (their ids and progress go 1..1000 in each block).
    block = "".join(progress(k) for k in range(1, 1001)).encode()
    for _ in range(a.events // 1000):
        out.write(block)
    out.write("".join(progress(k) for k in range(1, a.events % 1000 + 1)).encode())
    looped = 0
else:
    looped = a.events
batch = []
size = 0
for k in range(1, looped + 1):
    if a.delay:
        time.sleep(a.delay)
        stamp(k)
        out.write(make(k).encode())
        out.flush()
        continue
    batch.append(make(k))
    if len(batch) == 2000:
        out.write("".join(batch).encode())
        batch = []
out.write("".join(batch).encode())
if not a.no_final:
    if a.delay:
        time.sleep(a.delay)
        stamp(a.events + 1)
    if a.method == "tools/list":
        result = '{"tools":[{"name":"add","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}]}'
    else:
        result = '{"content":[{"type":"text","text":"done"}]}'
    out.write(('id: %d\ndata: {"jsonrpc":"2.0","id":1,"result":%s}\n\n' % (a.events + 1, result)).encode())
elif a.mixed:
    out.write(b"id: tail\nretry: 77\ndata: cut")
out.flush()
if a.delay:
    time.sleep(a.delay)
    stamp(a.events + 2)
