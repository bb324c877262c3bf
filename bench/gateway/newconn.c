// The bench's load for one short request per new connection, in C so that the client and the origin cost
// the shared cores as little as possible (a Node client would spend more CPU than the proxy it measures).
//
//   newconn origin
//       An HTTP/1.1 origin on a free loopback port (printed as {"port":N}): answers every request head with
//       200 and 1 KiB, kept alive until the client closes.
//   newconn load <direct|connect|socks> <proxy port> <origin port> <user:password|-> <connections> <seconds>
//       `connections` loops, each: a new TCP connection (to the origin, or to the proxy and through it by
//       CONNECT or SOCKS5, with the credentials when given), GET /, the whole answer read, close. Prints
//       {"requests","errors","seconds","p50Us","p99Us","firstError"} where a latency is from connect() to
//       the answer's last byte.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BODY_BYTES 1024
#define BUF_BYTES 4096

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct sockaddr_in loopback(int port) {
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

// ---- origin ----

typedef struct {
  int fd;
  int used;
  char buf[BUF_BYTES];
} peer_t;

static int run_origin(void) {
  static char answer[256 + BODY_BYTES];
  int head = snprintf(answer, 256,
                      "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n",
                      BODY_BYTES);
  memset(answer + head, 'a', BODY_BYTES);
  int answer_len = head + BODY_BYTES;

  int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = loopback(0);
  if (bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 4096)) {
    perror("origin listen");
    return 1;
  }
  socklen_t len = sizeof a;
  getsockname(ls, (struct sockaddr *)&a, &len);
  printf("{\"port\":%d}\n", ntohs(a.sin_port));
  fflush(stdout);

  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
  epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
  struct epoll_event events[256];
  for (;;) {
    int n = epoll_wait(ep, events, 256, -1);
    for (int i = 0; i < n; i++) {
      peer_t *p = events[i].data.ptr;
      if (!p) {
        int fd;
        while ((fd = accept4(ls, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          peer_t *np = calloc(1, sizeof *np);
          np->fd = fd;
          struct epoll_event pev = {.events = EPOLLIN, .data.ptr = np};
          epoll_ctl(ep, EPOLL_CTL_ADD, fd, &pev);
        }
        continue;
      }
      for (;;) {
        ssize_t r = read(p->fd, p->buf + p->used, BUF_BYTES - 1 - p->used);
        if (r == 0 || (r < 0 && errno != EAGAIN) || (r < 0 && p->used == BUF_BYTES - 1)) {
          close(p->fd);
          free(p);
          break;
        }
        if (r < 0) {
          break;
        }
        p->used += r;
        p->buf[p->used] = 0;
        char *end;
        while ((end = strstr(p->buf, "\r\n\r\n"))) {
          // Small answers to small requests: the socket buffer takes them whole.
          if (write(p->fd, answer, answer_len) != answer_len) {
            p->used = 0;
            break;
          }
          int consumed = (int)(end + 4 - p->buf);
          memmove(p->buf, p->buf + consumed, p->used - consumed + 1);
          p->used -= consumed;
        }
      }
    }
  }
}

// ---- load ----

enum mode { DIRECT, CONNECT, SOCKS };
enum step { CONNECTING, PROXY_REPLY, SOCKS_METHOD, SOCKS_AUTH, SOCKS_REPLY, RESPONSE };

typedef struct {
  int fd;
  enum step step;
  double started;
  int used;
  char buf[BUF_BYTES];
} slot_t;

static enum mode mode;
static int proxy_port, origin_port;
static char user[256], password[256];
static int has_auth;
static char connect_req[1024], get_req[256];
static int connect_len, get_len;
static long requests, errors;
static char first_error[200];
static double *latencies;
static long latencies_cap;
static int ep;

static void fail(slot_t *s, const char *what) {
  errors++;
  if (!first_error[0]) {
    snprintf(first_error, sizeof first_error, "%s%s%s", what, errno ? ": " : "", errno ? strerror(errno) : "");
  }
  close(s->fd);
  s->fd = -1;
}

static void start(slot_t *s) {
  s->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  int one = 1;
  setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct sockaddr_in a = loopback(mode == DIRECT ? origin_port : proxy_port);
  s->started = now_s();
  s->step = CONNECTING;
  s->used = 0;
  errno = 0;
  if (connect(s->fd, (struct sockaddr *)&a, sizeof a) && errno != EINPROGRESS) {
    fail(s, "connect");
    return;
  }
  struct epoll_event ev = {.events = EPOLLOUT | EPOLLIN, .data.ptr = s};
  epoll_ctl(ep, EPOLL_CTL_ADD, s->fd, &ev);
}

static int send_all(slot_t *s, const void *data, int len) {
  // Requests are small: a fresh socket's buffer takes them whole.
  errno = 0;
  if (write(s->fd, data, len) != len) {
    fail(s, "write");
    return 0;
  }
  return 1;
}

static int send_get(slot_t *s) {
  s->step = RESPONSE;
  s->used = 0;
  return send_all(s, get_req, get_len);
}

static void done(slot_t *s) {
  double took = now_s() - s->started;
  if (requests < latencies_cap) {
    latencies[requests] = took;
  }
  requests++;
  close(s->fd);
  s->fd = -1;
}

/** Bytes read so far answer a whole HTTP response (head and Content-Length body)? */
static int response_complete(slot_t *s, int *bad) {
  s->buf[s->used] = 0;
  char *end = strstr(s->buf, "\r\n\r\n");
  if (!end) {
    return 0;
  }
  if (strncmp(s->buf, "HTTP/1.1 200", 12) && strncmp(s->buf, "HTTP/1.0 200", 12)) {
    *bad = 1;
    return 0;
  }
  char *cl = strcasestr(s->buf, "\r\ncontent-length:");
  int body = cl && cl < end ? atoi(cl + 17) : 0;
  return s->used - (int)(end + 4 - s->buf) >= body;
}

static void on_event(slot_t *s, uint32_t events) {
  if (s->step == CONNECTING) {
    if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
      return;
    }
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err) {
      errno = err;
      fail(s, "connect");
      return;
    }
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = s};
    epoll_ctl(ep, EPOLL_CTL_MOD, s->fd, &ev);
    if (mode == DIRECT) {
      send_get(s);
    } else if (mode == CONNECT) {
      s->step = PROXY_REPLY;
      send_all(s, connect_req, connect_len);
    } else {
      s->step = SOCKS_METHOD;
      unsigned char hello[3] = {5, 1, has_auth ? 2 : 0};
      send_all(s, hello, 3);
    }
    return;
  }
  errno = 0;
  ssize_t r = read(s->fd, s->buf + s->used, BUF_BYTES - 1 - s->used);
  if (r < 0 && errno == EAGAIN) {
    return;
  }
  if (r <= 0) {
    fail(s, r == 0 ? "closed early" : "read");
    return;
  }
  s->used += r;
  unsigned char *u = (unsigned char *)s->buf;
  switch (s->step) {
  case PROXY_REPLY: {
    s->buf[s->used] = 0;
    if (!strstr(s->buf, "\r\n\r\n")) {
      return;
    }
    if (strncmp(s->buf + 8, " 200", 4)) {
      errno = 0;
      fail(s, "CONNECT refused");
      return;
    }
    send_get(s);
    return;
  }
  case SOCKS_METHOD:
    if (s->used < 2) {
      return;
    }
    if (u[1] == 2 && has_auth) {
      unsigned char auth[520];
      int ul = strlen(user), pl = strlen(password);
      auth[0] = 1;
      auth[1] = ul;
      memcpy(auth + 2, user, ul);
      auth[2 + ul] = pl;
      memcpy(auth + 3 + ul, password, pl);
      s->step = SOCKS_AUTH;
      s->used = 0;
      send_all(s, auth, 3 + ul + pl);
      return;
    }
    if (u[1] != 0) {
      errno = 0;
      fail(s, "SOCKS5 method refused");
      return;
    }
    // fallthrough: no authentication, straight to the request
  case SOCKS_AUTH: {
    if (s->step == SOCKS_AUTH && (s->used < 2 || u[1] != 0)) {
      if (s->used >= 2) {
        errno = 0;
        fail(s, "SOCKS5 authentication refused");
      }
      return;
    }
    unsigned char req[10] = {5, 1, 0, 1, 127, 0, 0, 1, origin_port >> 8, origin_port & 255};
    s->step = SOCKS_REPLY;
    s->used = 0;
    send_all(s, req, 10);
    return;
  }
  case SOCKS_REPLY:
    if (s->used < 2) {
      return;
    }
    if (u[1] != 0) {
      errno = 0;
      fail(s, "SOCKS5 request refused");
      return;
    }
    // IPv4 bound address: 10 bytes in all.
    if (s->used < 10) {
      return;
    }
    send_get(s);
    return;
  case RESPONSE: {
    int bad = 0;
    if (response_complete(s, &bad)) {
      done(s);
    } else if (bad) {
      errno = 0;
      fail(s, "answer not 200");
    } else if (s->used >= BUF_BYTES - 1) {
      errno = 0;
      fail(s, "answer too large");
    }
    return;
  }
  default:
    return;
  }
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int run_load(char **argv) {
  mode = !strcmp(argv[0], "direct") ? DIRECT : !strcmp(argv[0], "connect") ? CONNECT : SOCKS;
  proxy_port = atoi(argv[1]);
  origin_port = atoi(argv[2]);
  const char *credentials = argv[3];
  int connections = atoi(argv[4]);
  double seconds = atof(argv[5]);
  char auth_header[700] = "";
  if (strcmp(credentials, "-")) {
    has_auth = 1;
    const char *colon = strchr(credentials, ':');
    snprintf(user, sizeof user, "%.*s", (int)(colon - credentials), credentials);
    snprintf(password, sizeof password, "%s", colon + 1);
    // Base64 of user:password for the CONNECT request.
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *in = (const unsigned char *)credentials;
    int n = strlen(credentials), o = 0;
    char enc[600];
    for (int i = 0; i < n; i += 3) {
      unsigned v = in[i] << 16 | (i + 1 < n ? in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
      enc[o++] = b64[v >> 18 & 63];
      enc[o++] = b64[v >> 12 & 63];
      enc[o++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
      enc[o++] = i + 2 < n ? b64[v & 63] : '=';
    }
    enc[o] = 0;
    snprintf(auth_header, sizeof auth_header, "Proxy-Authorization: Basic %s\r\n", enc);
  }
  connect_len = snprintf(connect_req, sizeof connect_req,
                         "CONNECT 127.0.0.1:%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s\r\n", origin_port, origin_port,
                         auth_header);
  get_len = snprintf(get_req, sizeof get_req, "GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: */*\r\n\r\n",
                     origin_port);
  latencies_cap = 20000000;
  latencies = malloc(sizeof(double) * latencies_cap);

  ep = epoll_create1(0);
  slot_t *slots = calloc(connections, sizeof *slots);
  double began = now_s(), until = began + seconds;
  for (int i = 0; i < connections; i++) {
    start(&slots[i]);
  }
  struct epoll_event events[512];
  while (now_s() < until) {
    int n = epoll_wait(ep, events, 512, 50);
    for (int i = 0; i < n; i++) {
      slot_t *s = events[i].data.ptr;
      if (s->fd < 0) {
        continue;
      }
      on_event(s, events[i].events);
    }
    for (int i = 0; i < connections; i++) {
      if (slots[i].fd < 0) {
        start(&slots[i]);
      }
    }
  }
  double took = now_s() - began;
  long counted = requests < latencies_cap ? requests : latencies_cap;
  qsort(latencies, counted, sizeof(double), by_value);
  double p50 = counted ? latencies[counted / 2] : 0, p99 = counted ? latencies[(long)(counted * 0.99)] : 0;
  for (char *c = first_error; *c; c++) {
    if (*c == '"' || *c == '\\') {
      *c = '\'';
    }
  }
  printf("{\"requests\":%ld,\"errors\":%ld,\"seconds\":%.3f,\"p50Us\":%.1f,\"p99Us\":%.1f,\"firstError\":\"%s\"}\n",
         requests, errors, took, p50 * 1e6, p99 * 1e6, first_error);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "origin")) {
    return run_origin();
  }
  if (argc >= 8 && !strcmp(argv[1], "load")) {
    return run_load(argv + 2);
  }
  fprintf(stderr,
          "usage: newconn origin\n"
          "       newconn load <direct|connect|socks> <proxy port> <origin port> <user:password|-> "
          "<connections> <seconds>\n");
  return 2;
}
