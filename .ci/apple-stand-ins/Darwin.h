// Stand-in for the part of Darwin, the C library of Apple platforms, that the package's
// Apple-only branches call, type-checked by .ci/apple-typecheck. Declarations only: nothing here
// runs. Written as C, so Swift imports it as it imports the SDK's headers (a `struct stat` and a
// function `stat`, `mode_t` as `UInt16`, macros as constants).
//
// Pointers the SDK leaves unannotated are `_Null_unspecified` (implicitly unwrapped in Swift).
// Types, fields, signatures and values follow the macOS 15 / iOS 18 SDK headers:
// sys/_types/*.h, sys/stat.h (the 64-bit-inode `struct stat`), sys/fcntl.h, os/lock.h,
// pthread/pthread.h, crt_externs.h, netdb.h and sys/socket.h; swift-sharing's FileStorageKey
// (`open(path, O_EVTONLY)`, `close(source.handle)`) and libuv's uv__fs_fsync (`F_FULLFSYNC`,
// then `F_BARRIERFSYNC`) call the same names on Apple platforms.

typedef int dev_t;
typedef unsigned short mode_t;
typedef unsigned short nlink_t;
typedef unsigned long long ino_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef long long off_t;
typedef long long blkcnt_t;
typedef int blksize_t;
typedef long time_t;
typedef unsigned int socklen_t;

// MARK: - Files (sys/stat.h, sys/fcntl.h, unistd.h)

struct timespec {
    time_t tv_sec;
    long tv_nsec;
};

struct stat {
    dev_t st_dev;
    mode_t st_mode;
    nlink_t st_nlink;
    ino_t st_ino;
    uid_t st_uid;
    gid_t st_gid;
    dev_t st_rdev;
    struct timespec st_atimespec;
    struct timespec st_mtimespec;
    struct timespec st_ctimespec;
    struct timespec st_birthtimespec;
    off_t st_size;
    blkcnt_t st_blocks;
    blksize_t st_blksize;
    unsigned int st_flags;
    unsigned int st_gen;
    int st_lspare;
    long long st_qspare[2];
};

int stat(const char *_Null_unspecified path, struct stat *_Null_unspecified buf);
int fstat(int fd, struct stat *_Null_unspecified buf);
int close(int fd);
int fsync(int fd);
// Variadic in C, which Swift does not import; the SDK's Swift overlay declares this form, and
// the three-argument one that the Foundation stand-in declares (a C header cannot overload).
int fcntl(int fd, int cmd);

#define O_NONBLOCK 0x00000004
#define O_EVTONLY 0x00008000
#define O_CLOEXEC 0x01000000
#define FD_CLOEXEC 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_GETPATH 50
#define F_FULLFSYNC 51
#define F_BARRIERFSYNC 85

// MARK: - Locks and threads (os/lock.h, pthread/pthread.h)

typedef struct os_unfair_lock_s {
    unsigned int _os_unfair_lock_opaque;
} os_unfair_lock, *os_unfair_lock_t;

void os_unfair_lock_lock(os_unfair_lock_t _Nonnull lock);
_Bool os_unfair_lock_trylock(os_unfair_lock_t _Nonnull lock);
void os_unfair_lock_unlock(os_unfair_lock_t _Nonnull lock);

typedef unsigned long pthread_key_t;
int pthread_key_create(pthread_key_t *_Nonnull key, void (*_Nullable destructor)(void *_Nonnull));
void *_Nullable pthread_getspecific(pthread_key_t key);
int pthread_setspecific(pthread_key_t key, const void *_Nullable value);

// MARK: - The environment (crt_externs.h): `environ` is exported to executables only.

char *_Null_unspecified *_Null_unspecified *_Null_unspecified _NSGetEnviron(void);

// MARK: - Sockets (sys/socket.h, netdb.h)

struct sockaddr {
    unsigned char sa_len;
    unsigned char sa_family;
    char sa_data[14];
};

struct addrinfo {
    int ai_flags;
    int ai_family;
    int ai_socktype;
    int ai_protocol;
    socklen_t ai_addrlen;
    char *_Null_unspecified ai_canonname;
    struct sockaddr *_Null_unspecified ai_addr;
    struct addrinfo *_Null_unspecified ai_next;
};

int setsockopt(int socket, int level, int name, const void *_Null_unspecified value, socklen_t length);

#define SOCK_STREAM 1
#define SOL_SOCKET 0xffff
#define SO_NOSIGPIPE 0x1022
