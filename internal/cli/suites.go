package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/internal/suite"
)

// runSuites lists the registered suites; --make writes the make targets that run them (the
// Makefile includes it, so `make <suite>` iterates the registry).
func runSuites(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "suites", "")
	mk := fs.Bool("make", false, "write the make rules of the registered suites (one target each, and a plan target for make test)")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if !*mk {
		for _, s := range e.suites() {
			i := s.Info()
			fmt.Fprintf(e.stdout, "%-12s make %-12s roles %-40s %s\n", i.Name, i.Make, strings.Join(i.Roles, ","), i.Summary)
		}
		return nil
	}
	fmt.Fprintln(e.stdout, "# Written by `wirelab suites --make` from the suite registry (internal/suites): do not edit.")
	var targets, names []string
	for _, s := range e.suites() {
		i := s.Info()
		targets, names = append(targets, i.Make), append(names, i.Name)
		fmt.Fprintf(e.stdout, "%s: setup $(WIRELAB) ## %s: %s\n", i.Make, i.Summary, strings.Join(suiteVariables(e, s), " "))
		fmt.Fprintf(e.stdout, "\t$(if $(PLAN),,@$(WIRELAB) %s --out $(OUT) --flags-from-env --build-images $(or $(IMAGES_J),2))\n", i.Name)
		fmt.Fprintf(e.stdout, "\t@$(WIRELAB) %s --out $(OUT) --flags-from-env $(if $(PLAN),,$(AND_REPORT))\n\n", i.Name)
	}
	fmt.Fprintf(e.stdout, "SUITE_TARGETS := %s\nSUITE_NAMES := %s\n", strings.Join(targets, " "), strings.Join(names, " "))
	fmt.Fprintf(e.stdout, ".PHONY: %s\n", strings.Join(targets, " "))
	return nil
}

// suiteVariables are the make variables a suite's target takes: its flags, the name in capitals
// with - as _ (the run-local ones last).
func suiteVariables(e *env, s suite.Suite) []string {
	fs := newFlags(e, s.Info().Name, "")
	fs.matrixFlags(s.Info())
	s.Flags(fs.FlagSet, e.root)
	var own, shared []string
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "out" {
			return
		}
		v := strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_")) + "="
		if f.Name == "build-images" || f.Name == "flags-from-env" {
			return
		}
		if runLocalFlags[f.Name] || f.Name == "repeat" || f.Name == "image" || f.Name == "keep" {
			shared = append(shared, v)
			return
		}
		own = append(own, v)
	})
	return append(own, shared...)
}
