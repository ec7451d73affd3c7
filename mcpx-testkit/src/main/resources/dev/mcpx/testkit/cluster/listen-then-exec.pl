# Binds 127.0.0.1 port 0 (the kernel picks a free port), prints "port N", then runs the rest
# of the command line with the listening socket inherited and its fd in MCPX_LISTEN_FD: HAProxy
# cannot bind port 0 itself, but takes a socket as "fd@N". Nothing is probed, nothing is closed
# and bound again.
use strict;
use warnings;
use Socket;
use Fcntl;

socket(my $listener, PF_INET, SOCK_STREAM, 0) or die "socket: $!";
bind($listener, sockaddr_in(0, inet_aton("127.0.0.1"))) or die "bind: $!";
listen($listener, 1024) or die "listen: $!";
my $flags = fcntl($listener, F_GETFD, 0) or die "fcntl: $!";
fcntl($listener, F_SETFD, $flags & ~FD_CLOEXEC) or die "fcntl: $!";
my ($port) = sockaddr_in(getsockname($listener));
$ENV{MCPX_LISTEN_FD} = fileno($listener);
$| = 1;
print "port $port\n";
exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!";
