package dev.mcpx.front.http;

import dev.mcpx.config.ConfigException;
import dev.mcpx.config.TlsFiles;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A certificate chain and its private key from PEM files (what certbot, cert-manager and openssl
 * write), as the in-memory key store Jetty's TLS takes. Certificates are parsed by the JDK's
 * {@link CertificateFactory}, which reads PEM itself; keys must be unencrypted PKCS#8
 * ({@code BEGIN PRIVATE KEY}: RSA, EC, Ed25519) or PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY}), which
 * is given its PKCS#8 wrapper. Anything else is refused with the openssl line that converts it.
 */
final class PemCredentials {

    /** Only in memory, never written: Jetty's key manager needs some password. */
    static final char[] STORE_PASSWORD = "mcpx".toCharArray();
    static final String ALIAS = "mcpx";

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \\1-----");
    /** AlgorithmIdentifier rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters, DER. */
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
            (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

    private PemCredentials() {
    }

    /** The key store, or a {@link ConfigException} naming the file and what is wrong. */
    static KeyStore load(TlsFiles files) {
        List<X509Certificate> chain = certificates(files.certificate());
        PrivateKey key = privateKey(files.key(), chain.getFirst().getPublicKey());
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(ALIAS, key, STORE_PASSWORD, chain.toArray(new Certificate[0]));
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new ConfigException(files.key(), null, "cannot be used with " + files.certificate() + ": " + e.getMessage());
        }
    }

    static List<X509Certificate> certificates(Path file) {
        byte[] pem = read(file);
        if (!new String(pem, StandardCharsets.US_ASCII).contains("-----BEGIN CERTIFICATE-----")) {
            throw new ConfigException(file, null, "no certificate in it (expected -----BEGIN CERTIFICATE-----)");
        }
        try {
            List<X509Certificate> chain = new ArrayList<>();
            for (Certificate certificate : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem))) {
                chain.add((X509Certificate) certificate);
            }
            if (chain.isEmpty()) {
                throw new ConfigException(file, null, "no certificate in it (expected -----BEGIN CERTIFICATE-----)");
            }
            return chain;
        } catch (GeneralSecurityException e) {
            throw new ConfigException(file, null, "not a PEM certificate chain: " + e.getMessage());
        }
    }

    private static PrivateKey privateKey(Path file, PublicKey certified) {
        String text = new String(read(file), StandardCharsets.US_ASCII);
        Matcher block = BLOCK.matcher(text);
        while (block.find()) {
            String type = block.group(1);
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(block.group(2));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(file, null, "the " + type + " block is not valid Base64");
            }
            switch (type) {
                case "PRIVATE KEY" -> {
                    return matching(file, pkcs8(file, der, certified.getAlgorithm()), certified);
                }
                case "RSA PRIVATE KEY" -> {
                    return matching(file, pkcs8(file, wrapPkcs1(der), "RSA"), certified);
                }
                case "ENCRYPTED PRIVATE KEY" -> throw new ConfigException(file, null, "the key is encrypted; mcpx needs it "
                        + "unencrypted (readable by mcpx only): openssl pkcs8 -in " + file + " -out key.pem");
                case "EC PRIVATE KEY" -> throw new ConfigException(file, null, "SEC1 EC keys are not read; convert it to "
                        + "PKCS#8: openssl pkcs8 -topk8 -nocrypt -in " + file + " -out key.pem");
                default -> {
                    // EC PARAMETERS and the like come before the key in some files
                }
            }
        }
        throw new ConfigException(file, null, "no private key in it (expected -----BEGIN PRIVATE KEY-----)");
    }

    private static PrivateKey pkcs8(Path file, byte[] der, String algorithm) {
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new ConfigException(file, null, "not a " + algorithm + " private key for the certificate: " + e.getMessage());
        }
    }

    /** A key that does not belong to the certificate would fail every handshake: refuse it now, naming both. */
    private static PrivateKey matching(Path file, PrivateKey key, PublicKey certified) {
        try {
            String algorithm = switch (key.getAlgorithm()) {
                case "RSA" -> "SHA256withRSA";
                case "EC" -> "SHA256withECDSA";
                default -> key.getAlgorithm();
            };
            byte[] probe = new byte[32];
            new SecureRandom().nextBytes(probe);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certified);
            verifier.update(probe);
            if (verifier.verify(signature)) {
                return key;
            }
        } catch (GeneralSecurityException e) {
            throw new ConfigException(file, null, "cannot check the key against the certificate: " + e.getMessage());
        }
        throw new ConfigException(file, null, "this private key does not belong to the certificate (the first one in the chain)");
    }

    /** PKCS#8 PrivateKeyInfo around a PKCS#1 RSAPrivateKey: SEQUENCE { INTEGER 0, rsaEncryption, OCTET STRING key }. */
    static byte[] wrapPkcs1(byte[] pkcs1) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0x02, 0x01, 0x00});
        body.writeBytes(RSA_ALGORITHM);
        body.write(0x04);
        body.writeBytes(derLength(pkcs1.length));
        body.writeBytes(pkcs1);
        ByteArrayOutputStream info = new ByteArrayOutputStream();
        info.write(0x30);
        info.writeBytes(derLength(body.size()));
        info.writeBytes(body.toByteArray());
        return info.toByteArray();
    }

    private static byte[] derLength(int length) {
        if (length < 0x80) {
            return new byte[] {(byte) length};
        }
        if (length < 0x100) {
            return new byte[] {(byte) 0x81, (byte) length};
        }
        if (length < 0x10000) {
            return new byte[] {(byte) 0x82, (byte) (length >> 8), (byte) length};
        }
        return new byte[] {(byte) 0x83, (byte) (length >> 16), (byte) (length >> 8), (byte) length};
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfigException(file, null, "cannot be read: " + e);
        }
    }
}
