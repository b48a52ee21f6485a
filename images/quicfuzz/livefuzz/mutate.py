"""The mutation engine: grammar-aware edits of an input's frame sequence — insert a generated
frame, delete, duplicate, reorder, move a frame into another packet type (RFC 9000 §12.4 Table
3), change a field to a boundary value, flip a FIN, edit the HTTP/3 frames inside a STREAM
frame, corrupt a frame's bytes, or splice packets from another corpus input."""
import copy
import random

from . import grammar, wire

EPOCHS = ("initial", "handshake", "1rtt")
MAX_FRAMES = 24


def frames_of(inp: dict):
    """(packet, index) for every frame of the input."""
    return [(p, i) for p in inp["packets"] for i in range(len(p["frames"]))]


class Mutator:
    def __init__(self, rng: random.Random, gen: grammar.Generator):
        self.rng, self.gen = rng, gen
        self.ops = [self.insert, self.insert, self.insert, self.insert, self.delete, self.duplicate,
                    self.swap, self.move_epoch, self.field, self.field, self.field, self.flip_fin,
                    self.h3_edit, self.h3_edit, self.corrupt, self.new_packet]

    def mutate(self, inp: dict, corpus: list) -> tuple:
        """A mutated copy of inp and the names of the operations applied (1 to 4 of them)."""
        out = copy.deepcopy(inp)
        done = []
        for _ in range(self.rng.choice([1, 1, 2, 3, 4])):
            op = self.rng.choice(self.ops + ([self.splice] if corpus else []))
            if op == self.splice:
                op(out, corpus)
            elif not op(out):
                continue
            done.append(op.__name__)
        out["packets"] = [p for p in out["packets"] if p["frames"]] or grammar.base_input(self.gen.t)["packets"]
        # inputs must not grow without bound (insertions outnumber deletions): a longer input
        # costs more packets and is judged less often (one unmodelled frame unjudges it)
        while len(frames_of(out)) > MAX_FRAMES:
            p, i = self.pick(out)
            del p["frames"][i]
            out["packets"] = [p for p in out["packets"] if p["frames"]]
        return out, done

    def pick(self, inp):
        fs = frames_of(inp)
        return self.rng.choice(fs) if fs else (None, None)

    def insert(self, inp):
        if len(frames_of(inp)) >= MAX_FRAMES:
            return False
        p = self.rng.choice(inp["packets"])
        p["frames"].insert(self.rng.randrange(len(p["frames"]) + 1), self.gen.frame())
        return True

    def new_packet(self, inp):
        epoch = self.rng.choice(EPOCHS + ("1rtt", "1rtt", "1rtt"))
        inp["packets"].insert(self.rng.randrange(len(inp["packets"]) + 1), {"epoch": epoch, "frames": [self.gen.frame()]})
        return True

    def delete(self, inp):
        p, i = self.pick(inp)
        if p is None:
            return False
        del p["frames"][i]
        return True

    def duplicate(self, inp):
        p, i = self.pick(inp)
        if p is None or len(frames_of(inp)) >= MAX_FRAMES:
            return False
        p["frames"].insert(i + 1, copy.deepcopy(p["frames"][i]))
        return True

    def swap(self, inp):
        fs = frames_of(inp)
        if len(fs) < 2:
            return False
        (p1, i1), (p2, i2) = self.rng.sample(fs, 2)
        p1["frames"][i1], p2["frames"][i2] = p2["frames"][i2], p1["frames"][i1]
        return True

    def move_epoch(self, inp):
        """Put a frame into a packet of another type: the frames Table 3 forbids in Initial and
        Handshake packets (RFC 9000 §12.4) are found this way."""
        p, i = self.pick(inp)
        if p is None:
            return False
        f = p["frames"].pop(i)
        inp["packets"].append({"epoch": self.rng.choice(("initial", "handshake")), "frames": [f]})
        return True

    def field(self, inp):
        p, i = self.pick(inp)
        if p is None:
            return False
        f = p["frames"][i]
        names = [k for k, v in f.items() if isinstance(v, int) and not isinstance(v, bool) and k != "cid_len"]
        if f["t"] == "STREAM":
            names = ["stream_id", "offset"]
        if not names:
            return False
        k = self.rng.choice(names)
        f[k] = self.gen.stream_id() if k == "stream_id" and self.rng.random() < 0.6 else self.gen.value()
        return True

    def flip_fin(self, inp):
        streams = [(p, i) for p, i in frames_of(inp) if p["frames"][i]["t"] == "STREAM"]
        if not streams:
            return False
        p, i = self.rng.choice(streams)
        p["frames"][i]["fin"] = not p["frames"][i].get("fin", False)
        return True

    def h3_edit(self, inp):
        h3 = [(p, i) for p, i in frames_of(inp) if "h3" in p["frames"][i]]
        if not h3:
            return False
        p, i = self.rng.choice(h3)
        frames = p["frames"][i]["h3"]["frames"]
        r = self.rng.random()
        if r < 0.5 or not frames:
            frames.insert(self.rng.randrange(len(frames) + 1), self.gen.h3_frame())
        elif r < 0.75:
            del frames[self.rng.randrange(len(frames))]
        else:
            j = self.rng.randrange(len(frames))
            frames[j] = self.gen.h3_frame()
        return True

    def corrupt(self, inp):
        """Replace a frame by its own bytes with one changed, truncated or extended: the
        decoders' own error paths (FRAME_ENCODING_ERROR, §12.4)."""
        p, i = self.pick(inp)
        if p is None or p["frames"][i]["t"] == "RAW":
            return False
        try:
            b = bytearray(wire.encode_frame(p["frames"][i], {}))
        except wire.EncodeError:
            return False
        r = self.rng.random()
        if r < 0.4 and len(b) > 1:
            b[self.rng.randrange(1, len(b))] ^= 1 << self.rng.randrange(8)
        elif r < 0.7 and len(b) > 1:
            b = b[: self.rng.randrange(1, len(b))]
        else:
            b += bytes([self.rng.randrange(256)])
        p["frames"][i] = {"t": "RAW", "hex": bytes(b).hex()}
        return True

    def splice(self, inp, corpus):
        other = self.rng.choice(corpus)
        if other.get("alpn") != inp.get("alpn") or not other["packets"]:
            return False
        pk = copy.deepcopy(self.rng.choice(other["packets"]))
        inp["packets"].insert(self.rng.randrange(len(inp["packets"]) + 1), pk)
        return True
