# fuzz/fuzz.mk — included by the Makefile (issue #5): fuzz campaigns, crash reproduction, corpus merge.
# The scripts validate their variables (one line naming the variable, exit 2) before anything starts.
.PHONY: fuzz fuzz-repro fuzz-merge

fuzz: $(WIRELAB) ## fuzz QPACK/HTTP-3 parsers: TARGET= ENGINE=libfuzzer|afl DURATION=60s JOBS=1 (no TARGET: 20s on every target)
	@WIRELAB=$(WIRELAB) OUT=$(OUT) TARGET="$(TARGET)" ENGINE="$(ENGINE)" DURATION="$(DURATION)" JOBS="$(JOBS)" bash fuzz/campaign.sh $(AND_REPORT)

fuzz-repro: $(WIRELAB) ## replay a fuzz crash and print its stack: CRASH=out/fuzz/<t>/<engine>/<run>/crashes/<id>/minimized
	@WIRELAB=$(WIRELAB) OUT=$(OUT) CRASH="$(CRASH)" TARGET="$(TARGET)" bash fuzz/repro.sh

fuzz-merge: $(WIRELAB) ## merge a campaign's corpus into fuzz/<target>/corpus (minimized): TARGET= [RUN=out/fuzz/<t>/<engine>/<run>]
	@WIRELAB=$(WIRELAB) OUT=$(OUT) TARGET="$(TARGET)" RUN="$(RUN)" bash fuzz/merge.sh
