package h2tls

import "net"

// Authority is a request's :authority (or Host) for addr: serverName when set, else addr's
// host, with the port unless it is 443.
func Authority(addr, serverName string) string {
	host, port, _ := net.SplitHostPort(addr)
	if serverName != "" {
		host = serverName
	}
	if port == "443" || port == "" {
		return host
	}
	return net.JoinHostPort(host, port)
}
