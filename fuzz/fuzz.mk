# fuzz/fuzz.mk — included by the Makefile (issue #5): fuzz campaigns, crash reproduction, corpus merge.
# The scripts validate their variables (one line naming the variable, exit 2) before anything starts.
.PHONY: fuzz fuzz-repro fuzz-merge fuzz-seeds

fuzz: $(WIRELAB) ## fuzz QPACK/HTTP-3 parsers: TARGET= ENGINE=libfuzzer|afl DURATION=60s JOBS=1 (no TARGET: 20s on every target)
	@WIRELAB=$(WIRELAB) OUT=$(OUT) TARGET="$(TARGET)" ENGINE="$(ENGINE)" DURATION="$(DURATION)" JOBS="$(JOBS)" bash fuzz/campaign.sh $(AND_REPORT)

fuzz-repro: $(WIRELAB) ## replay a fuzz crash and print its stack: CRASH=out/fuzz/<t>/<engine>/<run>/crashes/<id>/minimized
	@WIRELAB=$(WIRELAB) OUT=$(OUT) CRASH="$(CRASH)" TARGET="$(TARGET)" bash fuzz/repro.sh

fuzz-merge: $(WIRELAB) ## merge a campaign's corpus into fuzz/<target>/corpus (minimized): TARGET= [RUN=out/fuzz/<t>/<engine>/<run> | SEEDS=<folder>]
	@WIRELAB=$(WIRELAB) OUT=$(OUT) TARGET="$(TARGET)" RUN="$(RUN)" SEEDS="$(SEEDS)" CORPUS="$(CORPUS)" bash fuzz/merge.sh

# fuzz-seeds (issue #16): QPACK decoder seeds from the HTTP/3 streams a QUIC run decrypted (wirelab
# fuzz-seeds writes $(OUT)/fuzz/seeds/nghttp3-qpack-decoder/trace-*), then merged like fuzz-merge.
fuzz-seeds: $(WIRELAB) ## nghttp3-qpack-decoder seeds from a QUIC run's decrypted HTTP/3 traffic, merged into its corpus: RUN=out/quic/<run-id>
	@[ -n "$(RUN)" ] || { echo "make fuzz-seeds: RUN: not set (want RUN=out/quic/<run-id>)" >&2; exit 2; }
	@$(WIRELAB) fuzz-seeds --run "$(RUN)" --out $(OUT) && \
	  WIRELAB=$(WIRELAB) OUT=$(OUT) TARGET=nghttp3-qpack-decoder RUN= SEEDS="$(OUT)/fuzz/seeds/nghttp3-qpack-decoder" CORPUS="$(CORPUS)" bash fuzz/merge.sh
