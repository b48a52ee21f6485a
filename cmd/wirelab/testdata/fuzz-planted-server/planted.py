"""aioquic_server.py with a planted bug (WIRELAB_PLANT): the test's misbehaving target."""
import os
import runpy
import time

from aioquic.quic.connection import QuicConnection

plant = os.environ.get("WIRELAB_PLANT", "")
data_blocked = QuicConnection._handle_data_blocked_frame
streams_blocked = QuicConnection._handle_streams_blocked_frame
max_streams_uni = QuicConnection._handle_max_streams_uni_frame


def on_data_blocked(self, context, frame_type, buf):
    self._planted_armed = True
    return data_blocked(self, context, frame_type, buf)


def on_streams_blocked(self, context, frame_type, buf):
    if frame_type == 0x17 and getattr(self, "_planted_armed", False):
        print("planted: DATA_BLOCKED then STREAMS_BLOCKED_UNI: aborting", flush=True)
        os.abort()
    return streams_blocked(self, context, frame_type, buf)


def on_max_streams_uni(self, context, frame_type, buf):
    start = buf.tell()
    value = buf.pull_uint_var()
    buf.seek(start)
    if value >= 1 << 30:
        print("planted: MAX_STREAMS_UNI %d: the event loop stops" % value, flush=True)
        time.sleep(1 << 20)
    return max_streams_uni(self, context, frame_type, buf)


if plant == "crash":
    QuicConnection._handle_data_blocked_frame = on_data_blocked
    QuicConnection._handle_streams_blocked_frame = on_streams_blocked
elif plant == "hang":
    QuicConnection._handle_max_streams_uni_frame = on_max_streams_uni
else:
    raise SystemExit("planted.py: WIRELAB_PLANT=%r: want crash or hang" % plant)
runpy.run_path(os.path.join(os.path.dirname(__file__), "aioquic_server.py"), run_name="__main__")
