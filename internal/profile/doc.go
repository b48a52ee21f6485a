// Package profile loads the named network profiles of images/sim/profiles.yml
// and turns a profile reference such as "drop-rate:rate_to_client=5" into
// netem settings for both directions, a schedule and NAT rebinding.
//
// Decoding is strict: an unknown key, a bad value or an inconsistent setting
// is an *Error naming the file and the field path on one line, e.g.
//
//	images/sim/profiles.yml: profiles.lte.to_client.delay: negative duration "-5ms"
//
// The syntax of values and references is documented at the top of
// profiles.yml; this package is its reference implementation.
package profile
