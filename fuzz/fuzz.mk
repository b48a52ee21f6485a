# fuzz/fuzz.mk — included by the Makefile (issue #5): fuzz campaigns, crash reproduction, corpus merge.
# The scripts validate their variables (one line naming the variable, exit 2) before anything starts.
.PHONY: fuzz fuzz-repro fuzz-merge fuzz-seeds fuzz-table

fuzz: $(WIRELAB) ## fuzz QPACK/HTTP-3 parsers: TARGET= ENGINE=libfuzzer|afl DURATION=60s JOBS=1 (no TARGET: 20s on every target)
	@WIRELAB=$(WIRELAB) OUT=$(OUT) TARGET="$(TARGET)" ENGINE="$(ENGINE)" DURATION="$(DURATION)" JOBS="$(JOBS)" bash fuzz/campaign.sh $(AND_REPORT)

fuzz-repro: $(WIRELAB) ## replay a parser crash (CRASH=out/fuzz/<t>/<engine>/<run>/crashes/<id>/minimized) or a live finding: FINDING=<.../findings/<id>> starts its server and replays it (exit 1: reproduced)
	@if [ -n "$(FINDING)" ]; then $(MAKE) -s fuzz-live REPLAY="$(FINDING)" BASELINE=none; \
	else WIRELAB=$(WIRELAB) OUT=$(OUT) CRASH="$(CRASH)" TARGET="$(TARGET)" bash fuzz/repro.sh; fi

fuzz-merge: $(WIRELAB) ## merge a campaign's corpus into fuzz/<target>/corpus (minimized): TARGET= [RUN=out/fuzz/<t>/<engine>/<run> | SEEDS=<folder>]
	@WIRELAB=$(WIRELAB) OUT=$(OUT) TARGET="$(TARGET)" RUN="$(RUN)" SEEDS="$(SEEDS)" CORPUS="$(CORPUS)" bash fuzz/merge.sh

fuzz-table: ## Markdown table of finished campaigns (exec/s, coverage at 1/5/10/20 min, corpus, crashes): RUNS="out/fuzz/<t>/<engine>/<run> ..."
	@[ -n "$(RUNS)" ] || { echo "make fuzz-table: RUNS: not set (want RUNS=\"out/fuzz/<t>/<engine>/<run> ...\")" >&2; exit 2; }
	@python3 fuzz/bin/campaign_table.py $(RUNS)

# fuzz-seeds (issue #16): seeds from the HTTP/3 streams a QUIC run decrypted — nghttp3-qpack-decoder records
# and nghttp3-h3-conn single-side connections (wirelab fuzz-seeds writes $(OUT)/fuzz/seeds/<target>/trace-*) —
# then each target's folder merged like fuzz-merge. CORPUS=<dir>: merge into <dir>/<target> (copies of the
# corpora: what a merge would add) instead of fuzz/<target>/corpus.
FUZZ_SEED_TARGETS := nghttp3-qpack-decoder nghttp3-h3-conn
fuzz-seeds: $(WIRELAB) ## nghttp3-qpack-decoder and nghttp3-h3-conn seeds from a QUIC run's decrypted HTTP/3 traffic, merged into their corpora: RUN=out/quic/<run-id>
	@[ -n "$(RUN)" ] || { echo "make fuzz-seeds: RUN: not set (want RUN=out/quic/<run-id>)" >&2; exit 2; }
	@$(WIRELAB) fuzz-seeds --run "$(RUN)" --out $(OUT) && \
	  for t in $(FUZZ_SEED_TARGETS); do \
	    if [ -z "$$(ls -A "$(OUT)/fuzz/seeds/$$t" 2>/dev/null)" ]; then echo "fuzz-seeds: $$t: no seeds to merge"; continue; fi; \
	    WIRELAB=$(WIRELAB) OUT=$(OUT) TARGET=$$t RUN= SEEDS="$(OUT)/fuzz/seeds/$$t" CORPUS="$(if $(CORPUS),$(CORPUS)/$$t)" bash fuzz/merge.sh || exit $$?; \
	  done
