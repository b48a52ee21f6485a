package main

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// target is one URL from REQUESTS: where to connect and what to ask for.
type target struct {
	authority string // host:port to dial (port 443 when the URL names none)
	host      string // TLS server name
	path      string // the request path, e.g. /abc
	file      string // the name under /downloads
}

// parseRequests parses REQUESTS (space-separated https URLs) into targets, in order.
func parseRequests(requests string) ([]target, error) {
	var out []target
	for _, raw := range strings.Fields(requests) {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("REQUESTS: %q: %v", raw, err)
		}
		if u.Scheme != "https" || u.Hostname() == "" {
			return nil, fmt.Errorf("REQUESTS: %q: want https://host[:port]/path", raw)
		}
		port := u.Port()
		if port == "" {
			port = "443"
		}
		p := u.EscapedPath()
		if p == "" {
			p = "/"
		}
		file, err := localName(u.Path)
		if err != nil {
			return nil, fmt.Errorf("REQUESTS: %q: %v", raw, err)
		}
		out = append(out, target{
			authority: net.JoinHostPort(u.Hostname(), port),
			host:      u.Hostname(),
			path:      p,
			file:      file,
		})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("REQUESTS: no URLs given")
	}
	return out, nil
}

// byAuthority groups targets by the server they go to, keeping the first-seen order of both.
func byAuthority(ts []target) [][]target {
	idx := map[string]int{}
	var groups [][]target
	for _, t := range ts {
		i, ok := idx[t.authority]
		if !ok {
			i = len(groups)
			idx[t.authority] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], t)
	}
	return groups
}
