# make coverage / make coverage-ratchet (issue #6). Included by the top-level Makefile; uses its
# $(WIRELAB) and $(OUT). TARGETS= limits the run to some targets of the gates file, GATES= picks
# another gates file (coverage/test.sh uses that to prove a gate fails).
.PHONY: coverage coverage-ratchet

COVERAGE_FLAGS = --out $(OUT) $(if $(TARGETS),--targets $(TARGETS)) $(if $(GATES),--gates $(GATES)) $(if $(RUN_ID),--run-id $(RUN_ID))

coverage: $(WIRELAB) ## coverage gates with gcovr: replay each fuzz target's corpus in a coverage build, Go unit-test coverage; enforce coverage/gates.yml (TARGETS= GATES=)
	@$(WIRELAB) images --out $(OUT) fuzz >/dev/null
	@$(WIRELAB) coverage $(COVERAGE_FLAGS) $(AND_REPORT)

coverage-ratchet: $(WIRELAB) ## measure, then raise coverage/gates.yml to the measured values (rounded down to 0.5%); never lowers a gate
	@$(WIRELAB) images --out $(OUT) fuzz >/dev/null
	@$(WIRELAB) coverage --ratchet $(COVERAGE_FLAGS)
