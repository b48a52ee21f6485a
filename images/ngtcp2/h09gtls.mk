# wirelab's addition to ngtcp2's configured examples/Makefile, read after it:
#   make -C examples -f Makefile -f h09gtls.mk h09gtlsclient h09gtlsserver
# ngtcp2 1.11 builds its HTTP/0.9 programs (h09client.cc, h09server.cc; ALPN hq-interop) only
# for wolfSSL (Debian's wolfSSL has no keylog callback, so its traces could not be decrypted) and
# quictls (not in Debian). These rules build the same sources with the GnuTLS backend of Debian's
# h3 programs and link them against Debian's libngtcp2 / libngtcp2_crypto_gnutls of the same
# version. The GnuTLS session sources hard-code ALPN h3 (an upstream TODO: "select ALPN based on
# app_proto"), so the h09 programs get copies with hq-interop (HQ_ALPN_V1 in shared.h) instead.

H09_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/third-party $(GNUTLS_CFLAGS) -DWITH_EXAMPLE_GNUTLS
H09_LIBS = $(top_builddir)/third-party/.libs/libhttp-parser.a \
	$(top_builddir)/third-party/.libs/liburlparse.a \
	-lngtcp2_crypto_gnutls -lngtcp2 $(GNUTLS_LIBS) $(LIBNGHTTP3_LIBS) $(LIBEV_LIBS)

# Upstream's own source lists for gtlsclient / gtlsserver, with the h3 program and the GnuTLS
# session swapped for the h09 program and the hq-interop session copy.
h09_objs = $(addprefix h09-,$(patsubst %.cc,%.o,$(filter %.cc,$(1))))
h09gtlsclient_OBJS = $(call h09_objs,$(patsubst client.cc,h09client.cc,\
	$(patsubst tls_client_session_gnutls.cc,hq_tls_client_session_gnutls.cc,$(gtlsclient_SOURCES))))
h09gtlsserver_OBJS = $(call h09_objs,$(patsubst server.cc,h09server.cc,\
	$(patsubst tls_server_session_gnutls.cc,hq_tls_server_session_gnutls.cc,$(gtlsserver_SOURCES))))

# The ALPN swap must hit every use of H3_ALPN_V1 and leave none, or the build stops.
hq_%.cc: %.cc
	sed 's/H3_ALPN_V1/HQ_ALPN_V1/g' $< > $@
	grep -q HQ_ALPN_V1 $@ && ! grep -q H3_ALPN $@

h09-%.o: %.cc
	$(CXX) $(DEFS) $(DEFAULT_INCLUDES) $(H09_CPPFLAGS) $(CPPFLAGS) $(AM_CXXFLAGS) $(CXXFLAGS) -c -o $@ $<

h09gtlsclient: $(h09gtlsclient_OBJS)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $^ $(H09_LIBS)

h09gtlsserver: $(h09gtlsserver_OBJS)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $^ $(H09_LIBS)

.PHONY: h09gtls
h09gtls: h09gtlsclient h09gtlsserver
