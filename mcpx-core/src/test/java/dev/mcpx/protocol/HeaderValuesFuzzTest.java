package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzing the header value decoder with what a hostile host or upstream could send: any
 * string decodes or fails with {@link HeaderValues.InvalidHeaderValueException}, and nothing
 * that decodes can be re-encoded into a header that carries CR, LF or NUL.
 */
class HeaderValuesFuzzTest {

    @Property
    void anyHeaderValueDecodesOrFailsTyped(@ForAll String header) {
        decodeAndReencode(header);
    }

    @Property
    void anySentinelShapedValueDecodesOrFailsTyped(@ForAll("sentinelShaped") String header) {
        decodeAndReencode(header);
    }

    private static void decodeAndReencode(String header) {
        String value;
        try {
            value = HeaderValues.decode(header);
        } catch (HeaderValues.InvalidHeaderValueException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        assertThat(HeaderValues.encode(value)).doesNotContain("\r", "\n", "\0");
    }

    @Provide
    Arbitrary<String> sentinelShaped() {
        Arbitrary<String> base64OfAnything = Arbitraries.bytes().array(byte[].class).ofMaxSize(24)
                .map(bytes -> Base64.getEncoder().encodeToString(bytes));
        Arbitrary<String> base64OfText = Arbitraries.strings().ofMaxLength(12)
                .map(text -> Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8)));
        Arbitrary<String> junk = Arbitraries.strings().withChars("=?base64AZaz09+/\r\n \t").ofMaxLength(16);
        Arbitrary<String> middle = Arbitraries.oneOf(base64OfAnything, base64OfText, junk);
        Arbitrary<String> prefix = Arbitraries.of("=?base64?", "=?BASE64?", "=?base64", "", "=?base64?=");
        Arbitrary<String> suffix = Arbitraries.of("?=", "?", "", "?=\r\n", "?= ");
        return net.jqwik.api.Combinators.combine(prefix, middle, suffix).as((p, m, s) -> p + m + s);
    }
}
