package dev.mcpx.config;

import java.nio.file.Path;

/** The PEM files the HTTP front serves TLS with: the certificate chain and its private key. */
public record TlsFiles(Path certificate, Path key) {
}
