package docker

import "testing"

func TestComposeMajor(t *testing.T) {
	for out, want := range map[string]int{
		"Docker Compose version v2.26.1":                 2,
		"Docker Compose version 2.26.1-4":                2,
		"docker-compose version 1.29.2, build unknown\n": 1,
		"garbage": 0,
	} {
		if got := major(out); got != want {
			t.Errorf("major(%q) = %d, want %d", out, got, want)
		}
	}
}

func TestRunSelector(t *testing.T) {
	if RunSelector("") != "wirelab.run" || RunSelector("x1") != "wirelab.run=x1" {
		t.Fatal("selector")
	}
}
