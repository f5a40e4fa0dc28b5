#ifndef CBENCHMARKMICROHTTPD_SHIM_H
#define CBENCHMARKMICROHTTPD_SHIM_H
/* The receiver of server.notifications: GNU libmicrohttpd alone, answering every request 200 with an empty body,
   reading and dropping request bodies and counting the POSTs. StoreServer's HTTP layer is internal to it, so the
   receiver is the library itself, written in C here (MHD_start_daemon is variadic, which Swift cannot call). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

struct CBenchmarkHTTPServer {
    struct MHD_Daemon *daemon;
    atomic_long posts;
    uint16_t port;
};

static inline enum MHD_Result CBenchmarkHTTP_answer(
    void *context, struct MHD_Connection *connection, const char *url, const char *method, const char *version,
    const char *upload_data, size_t *upload_data_size, void **request) {
    static int started;
    struct MHD_Response *response;
    enum MHD_Result queued;
    (void)url;
    (void)version;
    (void)upload_data;
    if (*request == NULL) {
        *request = &started;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (strcmp(method, "POST") == 0) atomic_fetch_add(&((struct CBenchmarkHTTPServer *)context)->posts, 1);
    response = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (response == NULL) return MHD_NO;
    queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return queued;
}

/* Starts a server on 127.0.0.1, on a port the system picks, with StoreServer's default limits (4 threads, 64 KiB
   per connection, 256 connections, 15 s idle); NULL if it cannot listen. */
static inline void *CBenchmarkHTTP_start(void) {
    struct CBenchmarkHTTPServer *server = calloc(1, sizeof *server);
    struct sockaddr_in address;
    const union MHD_DaemonInfo *info;
    if (server == NULL) return NULL;
    atomic_init(&server->posts, 0);
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    server->daemon = MHD_start_daemon(
        MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, CBenchmarkHTTP_answer, server,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_CONNECTION_TIMEOUT, 15u,
        MHD_OPTION_CONNECTION_LIMIT, 256u,
        MHD_OPTION_THREAD_POOL_SIZE, 4u,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
        MHD_OPTION_END);
    if (server->daemon == NULL) {
        free(server);
        return NULL;
    }
    info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    server->port = info == NULL ? 0 : info->port;
    return server;
}

/* The port the server listens on. */
static inline uint16_t CBenchmarkHTTP_port(void *server) {
    return ((struct CBenchmarkHTTPServer *)server)->port;
}

/* How many POST requests the server has answered. */
static inline long CBenchmarkHTTP_posts(void *server) {
    return atomic_load(&((struct CBenchmarkHTTPServer *)server)->posts);
}

/* Stops the server (waiting for the requests being answered) and frees it. */
static inline void CBenchmarkHTTP_stop(void *server) {
    MHD_stop_daemon(((struct CBenchmarkHTTPServer *)server)->daemon);
    free(server);
}
#endif
