// Command h2upload measures how fast a server accepts a request body: it POSTs -size bytes to
// /upload over TLS, -reps times, each on a new connection, over HTTP/2 (-proto h2) or HTTP/1.1
// (-proto h1), and writes the goodput of each repetition to -out. The HTTP/2 client is written on
// x/net's Framer so that every frame is seen: it sends exactly what the server's flow control
// allows and records the server's SETTINGS, WINDOW_UPDATEs and the time the upload spent blocked
// on a closed window (the Cloudflare upload-BDP experiment).
//
//	h2upload -addr server4:443 -servername server -ca /certs/ca.pem -proto h2 -size 10000000 \
//	    -reps 5 -keylog $SSLKEYLOGFILE -out /logs/upload.json
//
// Exit status: 0 when -out was written (failed repetitions are recorded in it), 1 when no
// connection could be made at all (or -out could not be written), 2 on a bad flag.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/wirelab/wirelab/internal/cmdflags"
	"github.com/wirelab/wirelab/internal/jsonfile"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole program behind main, so tests drive it in-process.
func run(args []string, stdout, stderr io.Writer) int {
	c, usage, err := parseFlags(args)
	if code, exit := cmdflags.Settle("h2upload", usage, err, stdout, stderr); exit {
		return code
	}
	tlsConf, closeKeylog, err := newTLSConfig(c)
	if err != nil {
		fmt.Fprintln(stderr, "h2upload:", err)
		return 2
	}
	defer closeKeylog()

	res, err := measure(c, tlsConf, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "h2upload:", err)
		return 1
	}
	// Atomic: a reader never sees half a result.
	if err := jsonfile.Write(c.out, res); err != nil {
		fmt.Fprintln(stderr, "h2upload:", err)
		return 1
	}
	return 0
}
