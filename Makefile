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
REPORT = $(WIRELAB) report --out $(OUT) $(if $(RUNS),--runs $(RUNS)) $(if $(DIFF),--diff $(DIFF)) $(if $(TRACES),--traces $(TRACES))
# AND_REPORT ends a suite's recipe line: the report runs after the suite, and the line exits with
# the suite's code (the report's when the suite passed). REPORT_AFTER=0 skips it (a CI shard: the
# merge job reports).
REPORT_AFTER ?= 1
AND_REPORT = ; rc=$$?; $(if $(filter 0,$(REPORT_AFTER)),r=0,$(REPORT); r=$$?); exit $$(( rc ? rc : r ))

# BUILD builds images, independent ones IMAGES_J at a time (default: wirelab's, see docs/images.md).
# A suite's recipe builds only what its run starts (--for SUITE), narrowed like the run by
# SERVERS= and CLIENTS= (NARROW).
BUILD = $(WIRELAB) images --out $(OUT) $(if $(IMAGES_J),-j $(IMAGES_J))
NARROW = $(if $(SERVERS),--servers $(SERVERS)) $(if $(CLIENTS),--clients $(CLIENTS))

.DEFAULT_GOAL := help
.PHONY: help setup setup-browser merge versions images interop grpcweb grpcweb-bench bench baseline h2 report test clean smoke list deps sim-check fuzz-go

help: ## list the targets with one line each
	@echo "wirelab — QUIC/HTTP-3, HTTP/2 flow-control and gRPC-web conformance and fuzzing lab"
	@echo
	@grep -hE '^[a-z][a-z0-9-]*:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{ printf "  make %-10s %s\n", $$1, $$2 }'
	@echo
	@echo "Variables: OUT=out (output dir), IMAGES='base endpoint' (make images), IMAGES_J= (images built at a time), RUN_ID=, SEED=, QUICK=1 (sim-check)"

$(WIRELAB): $(GO_SOURCES)
	@mkdir -p $(dir $@)
	$(GO) build -o $@ ./cmd/wirelab

setup: ## install what this machine lacks (debootstrap, jq, compose v2, cubic; root on Debian); interop and test do it first
	@bash ci/install-deps.sh

deps: ## check the prerequisites (Docker engine, compose v2, Go, debootstrap) and say how to get what is missing
	@bash ci/check-deps.sh

images: setup $(WIRELAB) ## build every image (IMAGES='base endpoint' for a subset), each after those it builds FROM, IMAGES_J= at a time
	@$(BUILD) $(IMAGES)

list: $(WIRELAB) ## list the image registry: every image, its implementation, version and roles
	@$(WIRELAB) list --out $(OUT)

versions: $(WIRELAB) ## per image: the pinned version next to the newest Debian / the Go proxy serves
	@$(WIRELAB) versions --go $(GO)

smoke: $(WIRELAB) images ## prove the lab works here: two labelled containers talk, cleanup leaves nothing
	@$(WIRELAB) smoke --out $(OUT) $(if $(RUN_ID),--run-id $(RUN_ID))

sim-check: $(WIRELAB) ## measure the sim's fidelity (RTT, loss, rate, capacity) through the real topology; QUICK=1 for the short set
	@$(WIRELAB) images --out $(OUT) sim probe >/dev/null
	@$(WIRELAB) sim-check --out $(OUT) $(if $(QUICK),--quick) $(if $(SEED),--seed $(SEED)) $(if $(RUN_ID),--run-id $(RUN_ID))

interop: setup $(WIRELAB) ## QUIC/HTTP-3 interop matrix through the sim: CLIENTS= SERVERS= TESTS= PROFILE= SEED= J= RUN_ID= RESUME=1 REPEAT=N BASELINE= SHARD=i/N
	@$(BUILD) --for quic $(NARROW)
	@$(WIRELAB) quic --out $(OUT) $(if $(CLIENTS),--clients $(CLIENTS)) $(if $(SERVERS),--servers $(SERVERS)) \
	  $(if $(TESTS),--tests $(TESTS)) $(if $(PROFILE),--profile $(PROFILE)) $(if $(SEED),--seed $(SEED)) \
	  $(if $(J),-j $(J)) $(if $(RUN_ID),--run-id $(RUN_ID)) $(if $(RESUME),--resume) $(if $(REPEAT),--repeat $(REPEAT)) $(if $(BASELINE),--baseline $(BASELINE)) $(if $(SHARD),--shard $(SHARD)) $(AND_REPORT)

grpcweb: setup $(WIRELAB) ## gRPC <-> gRPC-web conversion matrix (chains vs direct): CHAINS= CASES= SERVERS= CLIENTS= PROFILE= SEED= J= RUN_ID= RESUME=1 REPEAT=N BASELINE= SHARD=i/N
	@$(BUILD) --for grpcweb $(NARROW)
	@$(WIRELAB) grpcweb --out $(OUT) $(if $(CHAINS),--chains $(CHAINS)) $(if $(CASES),--cases $(CASES)) \
	  $(if $(SERVERS),--servers $(SERVERS)) $(if $(CLIENTS),--clients $(CLIENTS)) $(if $(PROFILE),--profile $(PROFILE)) \
	  $(if $(SEED),--seed $(SEED)) $(if $(J),-j $(J)) $(if $(RUN_ID),--run-id $(RUN_ID)) $(if $(RESUME),--resume) \
	  $(if $(REPEAT),--repeat $(REPEAT)) $(if $(BASELINE),--baseline $(BASELINE)) $(if $(SHARD),--shard $(SHARD)) $(AND_REPORT)

merge: $(WIRELAB) ## combine shard run folders (--shard i/N, same flags and seed) into one run: RUN_ID= SHARDS="DIR..." BASELINE=
	@$(WIRELAB) merge --out $(OUT) --run-id $(RUN_ID) $(if $(BASELINE),--baseline $(BASELINE)) $(SHARDS)

baseline: setup $(WIRELAB) ## write conformance/$(SUITE)/expected.yml (known failing/flaky cells, each with its reason) from a run: SUITE=quic|h2|grpcweb RUN_ID=
	@$(WIRELAB) baseline --out $(OUT) --suite $(SUITE) --run-id $(RUN_ID)

grpcweb-bench: setup $(WIRELAB) ## gRPC-web benchmark, one cell at a time: unary p50/p99 (1 KB, 64 KB) and streaming MB/s per chain as ratios to direct (bench.csv): CHAINS= PROFILE= SEED= RUN_ID=
	@$(BUILD) --for grpcweb
	@$(WIRELAB) grpcweb --out $(OUT) --cases bench -j 1 $(if $(CHAINS),--chains $(CHAINS)) $(if $(PROFILE),--profile $(PROFILE)) \
	  $(if $(SEED),--seed $(SEED)) $(if $(RUN_ID),--run-id $(RUN_ID))

h2: setup $(WIRELAB) ## HTTP/2 matrix through the sim (h2spec, own flow-control cases, upload BDP, robustness probes): SERVERS= CASES= H2SPEC= PROFILE= SEED= J= RUN_ID= RESUME=1 REPEAT=N BASELINE= SHARD=i/N
	@$(BUILD) --for h2 $(if $(SERVERS),--servers $(SERVERS))
	@$(WIRELAB) h2 --out $(OUT) $(if $(SERVERS),--servers $(SERVERS)) $(if $(CASES),--cases $(CASES)) \
	  $(if $(H2SPEC),--h2spec $(H2SPEC)) $(if $(PROFILE),--profile $(PROFILE)) $(if $(SEED),--seed $(SEED)) \
	  $(if $(J),-j $(J)) $(if $(RUN_ID),--run-id $(RUN_ID)) $(if $(RESUME),--resume) $(if $(REPEAT),--repeat $(REPEAT)) $(if $(BASELINE),--baseline $(BASELINE)) $(if $(SHARD),--shard $(SHARD)) $(AND_REPORT)

# Timings want the CPU: one cell at a time unless J= says otherwise.
bench: setup $(WIRELAB) ## protocol performance testbed: download time of 1 KB..10 MB over HTTP/1.1, h2, h3 per server, client and profile (bench.csv, SVG charts): SERVERS= CLIENTS=curl,ngtcp2,quic-go,aioquic PROTOCOLS= PROFILES= SIZES= CONGESTION=cubic,reno,bbr GSO=on,off HYSTART=on,off REPS= SEED= J=1 RUN_ID= RESUME=1 QUICK=1 SHARD=i/N
	@$(BUILD) --for bench $(NARROW)
	@$(WIRELAB) bench --out $(OUT) $(if $(QUICK),--quick=$(QUICK)) $(if $(SERVERS),--servers $(SERVERS)) $(if $(CLIENTS),--clients $(CLIENTS)) $(if $(PROTOCOLS),--protocols $(PROTOCOLS)) \
	  $(if $(PROFILES),--profiles $(PROFILES)) $(if $(SIZES),--sizes $(SIZES)) $(if $(CONGESTION),--congestion $(CONGESTION)) $(if $(GSO),--gso $(GSO)) $(if $(HYSTART),--hystart $(HYSTART)) $(if $(REPS),--reps $(REPS)) $(if $(SEED),--seed $(SEED)) \
	  -j $(or $(J),1) $(if $(RUN_ID),--run-id $(RUN_ID)) $(if $(RESUME),--resume) $(if $(SHARD),--shard $(SHARD)) $(AND_REPORT)

include fuzz/fuzz.mk coverage/coverage.mk

fuzz-go: ## wirelab's Go native fuzz targets (go test -fuzz; quic-go's QPACK, our parsers): FUZZTIME=30s each
	@OUT=$(OUT) bash fuzz/go/run.sh $(or $(FUZZTIME),30s)

report: $(WIRELAB) ## HTML dashboard out/report/index.html from the latest run of each suite: RUNS=quic/ID,h2/ID DIFF=quic/ID|none TRACES=all|failed|none
	@$(REPORT)

setup-browser: ## setup, and headless Chromium for the report's browser test (make test does it)
	@WIRELAB_BROWSER=1 bash ci/install-deps.sh

test: setup-browser ## the test suite CI runs: vet, unit tests, image builds, integration smoke (prints stage timings)
	@OUT=$(OUT) GO=$(GO) bash ci/test.sh

clean: ## remove every container/network/volume labelled by a wirelab run, and out/
	-@if [ -x $(WIRELAB) ]; then $(WIRELAB) clean; else $(GO) run ./cmd/wirelab clean; fi
	rm -rf $(OUT)
