package dev.mcpx.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.mcpx.testkit.Jws;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The private_key_jwt key: what PEM it takes, the algorithm it picks, and what a wrong key says. */
class SigningKeyTest {

    @Test
    void anRsaKeySignsRs256ThatTheJdkVerifies() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();

        SigningKey key = SigningKey.fromPem(pem(pair), null, "rsa-1");
        String jws = key.sign(new JWTClaimsSet.Builder().issuer("c").build(), null);

        assertThat(key.algorithm()).isEqualTo("RS256");
        assertThat(Jws.verifies(jws, pair.getPublic())).isTrue();
        assertThat(Jws.header(jws).path("kid").asString()).isEqualTo("rsa-1");
    }

    @Test
    void anEcKeysAlgorithmFollowsItsCurve() throws Exception {
        assertThat(SigningKey.fromPem(pem(ec("secp256r1")), null, null).algorithm()).isEqualTo("ES256");
        assertThat(SigningKey.fromPem(pem(ec("secp384r1")), null, null).algorithm()).isEqualTo("ES384");
        assertThatThrownBy(() -> SigningKey.fromPem(pem(ec("secp384r1")), "ES256", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ES256 does not fit");
    }

    @Test
    void keysItCannotUseAreRefusedWithWhatToDo() {
        assertThatThrownBy(() -> SigningKey.fromPem("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----",
                null, null)).hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
        assertThatThrownBy(() -> SigningKey.fromPem("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n"
                + "-----END ENCRYPTED PRIVATE KEY-----", null, null)).hasMessageContaining("encrypted");
        assertThatThrownBy(() -> SigningKey.fromPem("ssh-ed25519 AAAA", null, null))
                .hasMessageContaining("not a PEM private key");
        assertThatThrownBy(() -> SigningKey.fromPem("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
                null, null)).hasMessageContaining("neither a PKCS#8 EC nor RSA key");
    }

    @Test
    void theKeyIsNeverShown() throws Exception {
        String pem = pem(ec("secp256r1"));
        assertThat(SigningKey.fromPem(pem, null, null).toString()).isEqualTo("SigningKey[ES256]");
    }

    private static KeyPair ec(String curve) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec(curve));
        return generator.generateKeyPair();
    }

    private static String pem(KeyPair pair) {
        return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(pair.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
    }
}
