/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside lib/config: the parse context and the helpers the section files share. */
#ifndef FWS_CFG_INT_H
#define FWS_CFG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "fws_config.h"
#include "fws_jsonread.h"

/** A "dut" object (a config's or a campaign plan's) into d. */
int cfg_parse_dut(struct cfg_ctx *c, const json_t *v, struct fws_cfg_dut *d);
/** d's non-empty keys into the object o (a config's "dut", or a plan's over it). */
void cfg_emit_dut_fields(json_t *o, const struct fws_cfg_dut *d);

struct fws_cfg_host;
/** A host's ssh destination, options, binary and EAL from its "inventory" (cfg_inventory.c). */
int cfg_host_inventory(struct cfg_ctx *c, const json_t *v, struct fws_cfg_host *h);
/** Every key of obj is one of allowed (NULL ended); else "unknown key" naming the nearest
 * and listing the keys, or saying where they are listed (where, for a long list). */
int cfg_check_keys(struct cfg_ctx *c, const json_t *obj, const char *const *allowed);
int cfg_check_keys_named(struct cfg_ctx *c, const json_t *obj, const char *const *allowed,
			 const char *where);
int cfg_want_type(struct cfg_ctx *c, const json_t *v, json_type t, const char *what);
int cfg_get_string(struct cfg_ctx *c, const json_t *v, char *out, size_t outlen);
/** Member key of o, when present, as a destination or path (not starting with "-"); with
 * ptp_socket, ptp4l's socket: an absolute path. */
int cfg_member_string(struct cfg_ctx *c, const json_t *o, const char *key, bool ptp_socket,
		      char *out, size_t len);
int cfg_get_uint(struct cfg_ctx *c, const json_t *v, uint64_t lo, uint64_t hi, uint64_t *out);
int cfg_get_seconds(struct cfg_ctx *c, const json_t *v, double lo, double hi, double *out);
int cfg_get_percent(struct cfg_ctx *c, const json_t *v, double lo, double hi, double *out);
int cfg_parse_mac(struct cfg_ctx *c, const json_t *v, struct fws_mac *mac);
int cfg_ipv4_of(const char *s, uint32_t *out);
int cfg_ipv6_of(const char *s, uint8_t hi[12], uint32_t *lo);
int cfg_parse_ip_range(struct cfg_ctx *c, const json_t *v, bool *ipv6, uint8_t hi6[12],
		       uint32_t *lo, uint32_t *hi);
int cfg_parse_port_range(struct cfg_ctx *c, const json_t *v, uint16_t *lo, uint16_t *hi);

int cfg_parse_rate(struct cfg_ctx *c, const json_t *v, struct fws_rate *r);

/* Kinds named by a table (FWS_STAMPS, FWS_EXPECTS, FWS_NAT_MODES): the name of i ("?"
 * beyond it), and the index of v among the non-empty names, or -EINVAL with the choices. */
#define CFG_NAME(n, s) s, /* a table's names from its X-macro list: {LIST(CFG_NAME)} */
const char *cfg_name_of(const char *const *names, size_t n, unsigned int i);
int cfg_pick_name(struct cfg_ctx *c, const json_t *v, const char *const *names, size_t n);

/* Flows, ports and streams (cfg_streams.c, cfg_ports.c). */
int cfg_parse_flows(struct cfg_ctx *c, const json_t *v, struct fws_flow_spec *f);
int cfg_parse_port(struct cfg_ctx *c, const json_t *v, struct fws_cfg_port *p);
int cfg_parse_stream(struct cfg_ctx *c, const json_t *v, struct fws_cfg *cfg,
		     struct fws_cfg_stream *s);
int cfg_expand_direction(struct cfg_ctx *c, const json_t *v, struct fws_cfg *cfg,
			 const struct fws_flow_spec *flows, const struct fws_flow_spec *flows6,
			 const struct fws_rate *rate);

/* The top-level parse state: the config, and what explicit streams and "direction" inherit. */
struct cfg_top {
	struct fws_cfg *cfg;
	const json_t *root;
	struct fws_flow_spec flows, flows6;
	bool flows6_set;
	struct fws_rate rate;
};
/** The flows streams inherit when the config gives none (cfg_streams.c). */
void cfg_default_flows(struct cfg_top *t);

/*
 * One top-level key: how it is parsed (called only when the key is present, in table order),
 * emitted (NULL: folded into another section's output) and documented (validate --help).
 */
/** A section's nested key and what it sets (the reference's row for it). */
struct cfg_keydoc {
	const char *key, *doc;
};

struct cfg_section {
	const char *key;
	int (*parse)(struct cfg_ctx *c, const json_t *v, struct cfg_top *t);
	json_t *(*emit)(const struct fws_cfg *cfg);
	const char *doc;
	const struct cfg_keydoc *keys; /**< its object's keys, {NULL} ended; NULL: none */
};

void cfg_host_free(struct fws_cfg_host *h);
int cfg_hosts_check(struct cfg_ctx *c, const struct fws_cfg *cfg);
/** A scenario that is a known name up to case or white space is refused. */
int cfg_scenario_check(struct cfg_ctx *c, const struct fws_cfg *cfg);
int cfg_parse_sections(struct cfg_ctx *c, const json_t *root, struct fws_cfg *cfg);

/* Scenario presets (cfg_scenario.c): the default direction, then what a preset adds. */
const char *cfg_scenario_direction(const struct fws_cfg *cfg);
int cfg_apply_scenario(struct cfg_ctx *c, struct cfg_top *t);
/* NAT masquerade: pair every download stream with its learner (cfg_nat.c). */
int cfg_nat_pair(struct cfg_ctx *c, struct fws_cfg *cfg);
int cfg_check_ranges(struct cfg_ctx *c, const struct fws_cfg *cfg);
int cfg_check_senders(struct cfg_ctx *c, const struct fws_cfg *cfg);
int cfg_sweep_fit(struct cfg_ctx *c, struct fws_cfg *cfg);
int cfg_stream_senders(struct cfg_ctx *c, const json_t *v, const struct fws_cfg *cfg,
		       struct fws_cfg_stream *s);
int cfg_port_ref(struct cfg_ctx *c, const struct fws_cfg *cfg, const json_t *v, uint8_t *out);
/* Every stream without its own "l4" takes the config's; TCP's limits checked (cfg_l4.c). */
int cfg_apply_l4(struct cfg_ctx *c, struct fws_cfg *cfg);
int cfg_stream_l4(struct cfg_ctx *c, const json_t *x, struct fws_cfg_stream *s);
int cfg_stream_app(struct cfg_ctx *c, const json_t *x, struct fws_cfg_stream *s);
/* "fill" and "df" (cfg_payload.c): of an object, a stream's in the emitted config, and every
 * stream's once they exist. */
int cfg_parse_fill(struct cfg_ctx *c, const json_t *v, struct fws_cfg_fill *f);
void cfg_emit_stream_fill(json_t *o, const struct fws_cfg_stream *s);
int cfg_apply_fill(struct cfg_ctx *c, struct fws_cfg *cfg);
/* The tunnel scenarios' tunnel, fill and frame sizes, unless given (cfg_tunnel.c). */
int cfg_tunnel_preset(struct cfg_ctx *c, const json_t *root, struct fws_cfg *cfg);
/* "connections": checked once every stream exists (cfg_conn.c). */
int cfg_apply_connections(struct cfg_ctx *c, struct fws_cfg *cfg);
int cfg_check_frame_minimum(struct cfg_ctx *c, const json_t *root, struct fws_cfg *cfg);

/* Each section's parser and emitter, in the file of its family (docs/dev/layout.md). */
/* One per line: clang-format does not settle on a layout for this list. */
/* clang-format off */
#define CFG_SECTION_FNS(X) \
	X(dut) \
	X(scenario) \
	X(eal) \
	X(hosts) \
	X(clocks) \
	X(ports) \
	X(flows) \
	X(flows6) \
	X(rate_layer) \
	X(rate) \
	X(blocklist) \
	X(streams) \
	X(direction) \
	X(frame_size) \
	X(duration) \
	X(warmup) \
	X(drain) \
	X(repeat) \
	X(steady_band) \
	X(burst) \
	X(sweep) \
	X(path_check) \
	X(seq_window) \
	X(nat) \
	X(l4) \
	X(tcp) \
	X(search) \
	X(connections) \
	X(payload) \
	X(tunnel) \
	X(lcores) \
	X(output)
/* clang-format on */
#define CFG_SECTION_DECL(k)                                                                        \
	int cfg_sec_##k(struct cfg_ctx *c, const json_t *v, struct cfg_top *t);                    \
	json_t *cfg_emit_##k(const struct fws_cfg *cfg);
CFG_SECTION_FNS(CFG_SECTION_DECL)
#undef CFG_SECTION_DECL

#endif /* FWS_CFG_INT_H */
