"""What a campaign writes under /logs/fuzz/ (the cell's client folder): every file is complete
when it appears (written aside, then renamed), so a campaign stopped at any moment leaves
readable evidence; the input about to be sent is on disk before it is sent."""
import hashlib
import json
import os

RECENT = 16  # inputs kept before the one in flight: what a crash or hang is replayed from


def write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def read_json(path):
    with open(path) as f:
        return json.load(f)


def input_name(inp) -> str:
    return hashlib.sha1(json.dumps(inp, sort_keys=True).encode()).hexdigest()[:16]


class Store:
    def __init__(self, root):
        self.root = root
        for d in ("recent", "corpus", "findings"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        self.answers = open(os.path.join(root, "answers.jsonl"), "a")

    def before_send(self, seq: int, inp: dict):
        """The input goes to recent/ (a ring of RECENT) before a byte of it is sent."""
        write_json(os.path.join(self.root, "recent", "%02d.json" % (seq % RECENT)), {"seq": seq, "input": inp})

    def recent(self):
        """The inputs sent last, oldest first."""
        out = []
        d = os.path.join(self.root, "recent")
        for n in os.listdir(d):
            if n.endswith(".json"):
                try:
                    out.append(read_json(os.path.join(d, n)))
                except (OSError, ValueError):
                    pass
        return [r["input"] for r in sorted(out, key=lambda r: r["seq"])]

    def keep(self, inp) -> str:
        name = input_name(inp)
        write_json(os.path.join(self.root, "corpus", name + ".json"), inp)
        return name

    def answer(self, rec: dict):
        self.answers.write(json.dumps(rec, sort_keys=True) + "\n")
        self.answers.flush()

    def finding(self, oracle: str, signature: str, detail: dict, inputs: list) -> str:
        """A finding's folder: finding.json (oracle, signature, what happened, hits) and the
        inputs that replay it, in order (inputs.json). The same oracle and signature again only
        counts a hit."""
        key = hashlib.sha1((oracle + "\0" + signature).encode()).hexdigest()[:10]
        d = os.path.join(self.root, "findings", "%s-%s" % (oracle, key))
        f = os.path.join(d, "finding.json")
        if os.path.exists(f):
            rec = read_json(f)
            rec["hits"] += 1
            write_json(f, rec)
            return d
        os.makedirs(d, exist_ok=True)
        write_json(os.path.join(d, "inputs.json"), inputs)
        write_json(f, dict(detail, oracle=oracle, signature=signature, hits=1))
        return d
