package dev.mcpx.config;

import java.net.InetSocketAddress;
import java.util.Optional;

/** {@code HOST:PORT} as the command line and the config give it; {@code [::1]:8080} for IPv6. */
public final class HostPort {

    private HostPort() {
    }

    /** The unresolved address, or empty when {@code text} is not HOST:PORT with a port 0-65535. */
    public static Optional<InetSocketAddress> parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            return Optional.empty();
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            return Optional.empty();
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (host.isBlank() || port < 0 || port > 65535) {
            return Optional.empty();
        }
        return Optional.of(InetSocketAddress.createUnresolved(host, port));
    }
}
