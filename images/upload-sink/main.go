// Command upload-sink is the counting backend that the h2 images whose server cannot count a
// request body itself (nginx, haproxy, apache2, lighttpd, caddy) forward POST/PUT /upload to, with
// the server's own proxy module over HTTP/1.1 on loopback. It answers every path with
// internal/upload's byte count. It is not an image of its own: those images list this package in
// their manifest's build.go, so the source exists once.
//
//	upload-sink [-listen 127.0.0.1:8081]
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/wirelab/wirelab/internal/upload"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:8081", "address to serve plain HTTP/1.1 on")
	flag.Parse()
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	log.Printf("upload-sink: counting request bodies on http://%s", *listen)
	// No timeouts: a proxy may stream a slow upload for as long as the run lasts.
	log.Fatal(http.ListenAndServe(*listen, http.HandlerFunc(upload.Handler)))
}
