package profile

import "strings"

// Error is a problem in a profile file or reference, reported on one line as
// "file: field: message" so the CLI can print it and exit 2.
type Error struct {
	File  string // the profiles file
	Field string // dotted path, e.g. profiles.lte.to_client.delay, or profile:key for a reference
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	// One line, whatever a wrapped message or a quoted value contained.
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(b.String())
}
