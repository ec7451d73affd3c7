package dev.mcpx.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** AES-GCM sealing: a new nonce per value, the key id in the value, the name bound in, a rotation's old key still opening. */
class SecretKeysTest {

    private static final String NEW = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=";
    private static final String OLD = "AAECAwQFBgcICQoLDA0ODw==";

    @Test
    void aValueIsSealedWithAFreshNonceAndOpensOnlyUnderItsName() {
        SecretKeys keys = SecretKeys.of(List.of(NEW));
        String one = keys.seal("mcpx:secret:a", "{\"access_token\":\"abc\"}");
        String two = keys.seal("mcpx:secret:a", "{\"access_token\":\"abc\"}");
        assertThat(one).isNotEqualTo(two).startsWith("m1." + keys.sealingId() + ".").doesNotContain("abc");
        assertThat(keys.open("mcpx:secret:a", one)).isEqualTo("{\"access_token\":\"abc\"}");
        assertThatThrownBy(() -> keys.open("mcpx:secret:b", one)).isInstanceOf(SecretKeys.Unopenable.class)
                .hasMessageContaining("stored under another name");
        // not the last character: some of its bits may be base64 padding, which decodes the same
        int at = one.length() - 5;
        String changed = one.substring(0, at) + (one.charAt(at) == 'A' ? 'B' : 'A') + one.substring(at + 1);
        assertThatThrownBy(() -> keys.open("mcpx:secret:a", changed)).hasMessageContaining("it was changed");
        assertThatThrownBy(() -> keys.open("mcpx:secret:a", "{\"access_token\":\"abc\"}"))
                .hasMessageContaining("is not a value sealed by mcpx");
    }

    @Test
    void whileAKeyRotatesTheOldOneOpensAndTheNewOneSeals() {
        SecretKeys old = SecretKeys.of(List.of(OLD));
        SecretKeys rotating = SecretKeys.of(List.of(NEW, OLD));
        String sealedBefore = old.seal("n", "before");
        assertThat(rotating.open("n", sealedBefore)).isEqualTo("before");
        String sealedAfter = rotating.seal("n", "after");
        assertThat(sealedAfter).contains("." + SecretKeys.of(List.of(NEW)).sealingId() + ".");
        assertThatThrownBy(() -> old.open("n", sealedAfter)).isInstanceOf(SecretKeys.Unopenable.class)
                .hasMessageContaining("which this replica does not have").hasMessageNotContaining(NEW);
    }
}
