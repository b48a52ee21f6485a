package main

import (
	"context"
	"crypto/tls"
	"errors"
	"time"
)

// ticketCache is crypto/tls's LRU session cache that also says when a ticket has arrived: with
// x/net/quic the client stores the server's NewSessionTicket through ClientSessionCache
// (x/net does not enable tls.QUICConfig session events), some time after the handshake.
type ticketCache struct {
	tls.ClientSessionCache
	got chan struct{} // one token per stored ticket
}

func newTicketCache() *ticketCache {
	return &ticketCache{ClientSessionCache: tls.NewLRUClientSessionCache(8), got: make(chan struct{}, 16)}
}

func (c *ticketCache) Put(key string, cs *tls.ClientSessionState) {
	c.ClientSessionCache.Put(key, cs)
	if cs != nil { // nil removes an entry
		select {
		case c.got <- struct{}{}:
		default:
		}
	}
}

// wait blocks until a ticket has been stored or the timeout passes.
func (c *ticketCache) wait(ctx context.Context, timeout time.Duration) error {
	select {
	case <-c.got:
		return nil
	case <-time.After(timeout):
		return errors.New("no session ticket from the server within " + timeout.String())
	case <-ctx.Done():
		return ctx.Err()
	}
}
