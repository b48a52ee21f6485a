"""What the fuzzer's model must agree on with the repository's data: the rule ids of
conformance/fuzz-live/rules.yml, and the committed seeds (what the generator writes). Run from
the repository by internal/livefuzz's Go tests (the image holds neither file)."""
import json
import os
import unittest

from livefuzz import rules, seeds

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")


class RepositoryTest(unittest.TestCase):
    def test_rules_file_names_every_predicate(self):
        with open(os.path.join(ROOT, "conformance", "fuzz-live", "rules.yml")) as f:
            ids = {l.split("id:")[1].strip() for l in f if l.strip().startswith("- id:")}
        self.assertEqual(ids, rules.RULE_IDS)

    def test_committed_seeds_are_the_generators(self):
        d = os.path.join(ROOT, "conformance", "fuzz-live", "seeds")
        files = {}
        for n in os.listdir(d):
            with open(os.path.join(d, n)) as f:
                files[n[:-5]] = json.load(f)
        self.assertEqual(files, json.loads(json.dumps(seeds.all_seeds())))


if __name__ == "__main__":
    unittest.main()
