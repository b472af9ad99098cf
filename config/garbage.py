"""The garbage collector of a long-running server process (``config.asgi``).

A server holding many live sockets keeps a large heap of long-lived objects (each socket's
protocol, consumer, outbox and tasks), and every full collection walks all of it while the event
loop, and with the GIL every database thread, stands still. Under ``manage.py bench load`` (1,500
sockets on two servers, 250 commands/s) CPython's default thresholds ran a full collection 7 times a
minute in each server, each pausing it for 200 to 430 ms, which is the whole latency budget of a
push. Two changes, as large Python web services do:

- ``gc.freeze()`` once the application is loaded: the modules, models, engines and their content
  (about 140,000 objects) never become garbage, so no collection walks them again;
- a full collection at most once per ``FULL_EVERY`` collections of the middle generation instead
  of 10 (CPython also waits until a quarter of the long-lived heap is new). Reference cycles are
  still collected: the young generations as often as before, the old one less often, which lets a
  little more cyclic garbage wait in memory.
"""

import gc

YOUNG = 700  # CPython's default for generation 0
MIDDLE = 10  # CPython's default for generation 1
FULL_EVERY = 100  # CPython's default is 10


def tune_for_server() -> None:
    """Freeze what is alive now (call once the application is loaded) and space full collections."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, FULL_EVERY)
