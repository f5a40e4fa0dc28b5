#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: these wrappers pass a fixed list. */

/* The callback told each request's target as the client sent it (path and query, not yet percent-decoded), before
   libmicrohttpd parses its query; what it returns is the request's state, as the access handler then receives it. */
typedef void *(*CMicroHTTPD_TargetCallback)(void *context, const char *target, struct MHD_Connection *connection);

/* Starts a daemon with a thread for each connection (so that a request that takes long holds up no other client),
   listening on the numeric IPv4 or IPv6 address `host` and `port` (0: the system picks one). `*invalid_address` is set
   to 1 when `host` is not a numeric address. */
static inline struct MHD_Daemon *CMicroHTTPD_start(
    const char *host, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context, CMicroHTTPD_TargetCallback target,
    void *target_context, unsigned int connection_timeout, unsigned int connection_limit,
    size_t connection_memory_limit, int *invalid_address) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *address;
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    *invalid_address = 0;
    if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        address = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        address = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        *invalid_address = 1;
        return NULL;
    }
    return MHD_start_daemon(
        flags, port, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_URI_LOG_CALLBACK, target, target_context,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_END);
}

/* Counts the connection's idle time from now, with `seconds` as its limit: a request whose handler took longer than
   the limit is answered rather than closed as idle. (libmicrohttpd restarts the count when the limit is set on a
   connection that had none.) */
static inline void CMicroHTTPD_restart_idle_timer(struct MHD_Connection *connection, unsigned int seconds) {
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, 0u);
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/* The port a daemon listens on (the one the system picked when it was started with port 0); 0 if unknown. */
static inline uint16_t CMicroHTTPD_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* A response holding a copy of `size` bytes at `buffer` (which may be NULL when `size` is 0): Swift imports the enum
   MHD_ResponseMemoryMode in a spelling that varies with the compiler, so the mode is chosen here. */
static inline struct MHD_Response *CMicroHTTPD_response_copying(size_t size, const void *buffer) {
    static const char empty = 0;
    return MHD_create_response_from_buffer(size, (void *)(buffer == NULL ? &empty : buffer), MHD_RESPMEM_MUST_COPY);
}

/* Whether the client of a connection connects from a loopback address (127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104). */
static inline int CMicroHTTPD_client_is_loopback(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *address = info == NULL ? NULL : info->client_addr;
    if (address == NULL) return 0;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        if (IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr)) return 1;
        return IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr) && v6->sin6_addr.s6_addr[12] == 127;
    }
    return 0;
}
/* Writes `size` bytes of a whole HTTP response straight to the connection's socket and ends the sending side, for a
   request that must be answered while libmicrohttpd is still reading its body (when it accepts no queued response);
   the access handler then returns MHD_NO, and libmicrohttpd closes the connection. Returns 1 if all was written. */
static inline int CMicroHTTPD_answer_before_closing(
    struct MHD_Connection *connection, const void *bytes, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    size_t sent = 0;
    if (info == NULL) return 0;
    while (sent < size) {
        ssize_t count = send(info->connect_fd, (const char *)bytes + sent, size - sent, MSG_NOSIGNAL);
        if (count <= 0) break;
        sent += (size_t)count;
    }
    shutdown(info->connect_fd, SHUT_WR);
    return sent == size;
}
#endif
