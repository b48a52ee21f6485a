# wirelab — the user interface. `make` or `make help` lists the targets.
# Everything a run writes goes to out/ (git-ignored).

SHELL := /bin/bash
GO ?= go
OUT ?= out
WIRELAB := $(OUT)/bin/wirelab
GO_SOURCES := $(shell find cmd internal images -name '*.go' -not -name '*_test.go' 2>/dev/null) go.mod go.sum

# The dashboard (make report, and at the end of interop, h2, grpcweb, fuzz and coverage, whatever
# the suite's outcome): RUNS=quic/ID,h2/ID picks runs, DIFF=quic/ID|none the run to compare with,
# TRACES=all|failed|none the cells that get a packet list and a time-sequence chart.
REPORT = $(WIRELAB) report --out $(OUT) $(if $(RUNS),--runs $(RUNS)) $(if $(DIFF),--diff $(DIFF)) $(if $(TRACES),--traces $(TRACES)) $(if $(REPORT_BASELINES),--baseline $(REPORT_BASELINES))
# AND_REPORT ends a suite's recipe line: the report runs after the suite, and the line exits with
# the suite's code (the report's when the suite passed). REPORT_AFTER=0 skips it (a CI shard: the
# merge job reports).
REPORT_AFTER ?= 1
AND_REPORT = ; rc=$$?; $(if $(filter 0,$(REPORT_AFTER)),r=0,$(REPORT); r=$$?); exit $$(( rc ? rc : r ))

.DEFAULT_GOAL := help
.PHONY: help setup setup-browser merge versions images grpcweb-bench baseline report test clean smoke list deps sim-check fuzz-go

help: ## list the targets with one line each
	@echo "wirelab — QUIC/HTTP-3, HTTP/2 flow-control and gRPC-web conformance and fuzzing lab"
	@echo
	@grep -hE '^[a-z][a-z0-9-]*:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{ printf "  make %-10s %s\n", $$1, $$2 }'
	@echo
	@echo "Variables: OUT=out (output dir), IMAGES='base endpoint' (make images), RUN_ID=, SEED=, QUICK=1 (sim-check);"
	@echo "a suite's target takes each of its flags (wirelab <suite> -h) as a variable: the name in capitals, - as _ (PLAN=1: the plan only)"

$(WIRELAB): $(GO_SOURCES)
	@mkdir -p $(dir $@)
	$(GO) build -o $@ ./cmd/wirelab

setup: ## install what this machine lacks (debootstrap, jq, compose v2, cubic; root on Debian); interop and test do it first
	@bash ci/install-deps.sh

deps: ## check the prerequisites (Docker engine, compose v2, Go, debootstrap) and say how to get what is missing
	@bash ci/check-deps.sh

images: setup $(WIRELAB) ## build the images in dependency order with layer caching (IMAGES='base endpoint' for a subset)
	@$(WIRELAB) images --out $(OUT) $(IMAGES)

list: $(WIRELAB) ## list the image registry: every image, its implementation, version and roles
	@$(WIRELAB) list --out $(OUT)

versions: $(WIRELAB) ## per image: the pinned version next to the newest Debian / the Go proxy serves
	@$(WIRELAB) versions --go $(GO)

smoke: $(WIRELAB) images ## prove the lab works here: two labelled containers talk, cleanup leaves nothing
	@$(WIRELAB) smoke --out $(OUT) $(if $(RUN_ID),--run-id $(RUN_ID))

sim-check: $(WIRELAB) ## measure the sim's fidelity (RTT, loss, rate, capacity) through the real topology; QUICK=1 for the short set
	@$(WIRELAB) images --out $(OUT) sim probe >/dev/null
	@$(WIRELAB) sim-check --out $(OUT) $(if $(QUICK),--quick) $(if $(SEED),--seed $(SEED)) $(if $(RUN_ID),--run-id $(RUN_ID))

# The suites' targets (make interop, h2, grpcweb, bench, ...) come from the suite registry:
# `wirelab suites --make` writes one rule per registered suite into $(SUITES_MK), which make
# includes (and remakes when the binary changes). Each rule builds only the images the suite's
# selection needs, then runs it; the suite takes its flags from make's variables, each flag's
# name in capitals with - as _ (SERVERS=nginx, RUN_ID=x, J=4, RESUME=1, REPEAT=5, BASELINE=f,
# SHARD=2/3, PLAN=1: print the plan only).
SUITES_MK := $(OUT)/make/suites.mk
$(SUITES_MK): $(WIRELAB)
	@mkdir -p $(dir $@)
	@$(WIRELAB) suites --make >$@.tmp && mv $@.tmp $@
-include $(SUITES_MK)

merge: $(WIRELAB) ## combine shard run folders (--shard i/N, same flags and seed) into one run: RUN_ID= SHARDS="DIR..." BASELINE=
	@$(WIRELAB) merge --out $(OUT) $(if $(RUN_ID),--run-id $(RUN_ID)) $(if $(BASELINE),--baseline $(BASELINE)) $(SHARDS)

baseline: setup $(WIRELAB) ## write conformance/$(SUITE)/expected.yml (known failing/flaky cells, each with its reason) from a run: SUITE= RUN_ID=
	@$(WIRELAB) baseline --out $(OUT) $(if $(SUITE),--suite $(SUITE)) $(if $(RUN_ID),--run-id $(RUN_ID))

grpcweb-bench: setup $(WIRELAB) ## gRPC-web benchmark, one cell at a time: unary p50/p99 (1 KB, 64 KB) and streaming MB/s per chain as ratios to direct (bench.csv): CHAINS= PROFILE= SEED= RUN_ID=
	@$(WIRELAB) grpcweb --out $(OUT) --cases bench $(if $(CHAINS),--chains $(CHAINS)) --build-images $(or $(IMAGES_J),2)
	@$(WIRELAB) grpcweb --out $(OUT) --cases bench -j 1 $(if $(CHAINS),--chains $(CHAINS)) $(if $(PROFILE),--profile $(PROFILE)) \
	  $(if $(SEED),--seed $(SEED)) $(if $(RUN_ID),--run-id $(RUN_ID))

include fuzz/fuzz.mk coverage/coverage.mk

fuzz-go: ## wirelab's Go native fuzz targets (go test -fuzz; quic-go's QPACK, our parsers): FUZZTIME=30s each
	@OUT=$(OUT) bash fuzz/go/run.sh $(or $(FUZZTIME),30s)

report: $(WIRELAB) ## HTML dashboard out/report/index.html from the latest run of each suite: RUNS=quic/ID,h2/ID DIFF=quic/ID|none TRACES=all|failed|none REPORT_BASELINES=quic=FILE|none
	@$(REPORT)

setup-browser: ## setup, and headless Chromium for the report's browser test (make test does it)
	@WIRELAB_BROWSER=1 bash ci/install-deps.sh

test: setup-browser ## the test suite CI runs: vet, unit tests, image builds, integration smoke (prints stage timings)
	@OUT=$(OUT) GO=$(GO) bash ci/test.sh

clean: ## remove every container/network/volume labelled by a wirelab run, and out/
	-@if [ -x $(WIRELAB) ]; then $(WIRELAB) clean; else $(GO) run ./cmd/wirelab clean; fi
	rm -rf $(OUT)
