package fuzzcov

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
	"time"
)

var funcs = template.FuncMap{
	"int":      fmtAnyInt,
	"rate":     fmtRate,
	"duration": fmtDuration,
	"pct":      fmtPct,
	"utc":      fmtUnix,
	"inc":      func(n int) int { return n + 1 },
}

// fmtInt groups thousands (1,584,203), as the docs' tables do.
func fmtInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fmtAnyInt lets templates format any integer field.
func fmtAnyInt(v any) string {
	switch n := v.(type) {
	case int:
		return fmtInt(int64(n))
	case int64:
		return fmtInt(n)
	}
	return fmt.Sprint(v)
}

// fmtRate shows whole numbers from 10 up, one decimal below (a slow target's 3.5 exec/s).
func fmtRate(v float64) string {
	if v >= 10 {
		return fmtInt(int64(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func fmtDuration(s float64) string {
	d := time.Duration(math.Round(s)) * time.Second
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%d h %d min", int(d.Hours()), int(d.Minutes())%60)
}

func fmtPct(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "%" }

// fmtUnix shows a Unix time in UTC, so the same data renders the same everywhere.
func fmtUnix(t float64) string {
	if t <= 0 {
		return ""
	}
	return time.Unix(int64(t), 0).UTC().Format("2006-01-02 15:04Z")
}
