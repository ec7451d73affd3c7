package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;

class HeaderValuesPropertyTest {

    @Property(tries = 2000)
    void anyStringRoundTrips(@ForAll String value) {
        assertThat(HeaderValues.decode(HeaderValues.encode(value))).isEqualTo(value);
    }

    @Property(tries = 2000)
    void encodedValuesAreVisibleAsciiOrSpaceOnly(@ForAll String value) {
        String header = HeaderValues.encode(value);
        assertThat(header).isNotEmpty().doesNotContain("\r", "\n", "\0");
        assertThat(header.chars()).allMatch(c -> c >= 0x20 && c <= 0x7E);
        assertThat(header).doesNotStartWith(" ").doesNotEndWith(" ");
    }

    @Property(tries = 1000)
    void headerSafeAsciiPassesThroughUnchanged(
            @ForAll @StringLength(min = 1, max = 40) @CharRange(from = '!', to = '~') @Chars({' '}) String value) {
        String trimmed = value.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("=?base64?") && trimmed.endsWith("?=")) {
            return;
        }
        assertThat(HeaderValues.encode(trimmed)).isEqualTo(trimmed);
    }

    @Property(tries = 1000)
    void sentinelLookalikesAreAlwaysEncoded(@ForAll @CharRange(from = ' ', to = '~') String middle) {
        String lookalike = "=?base64?" + middle + "?=";
        assertThat(HeaderValues.encode(lookalike)).isNotEqualTo(lookalike);
        assertThat(HeaderValues.decode(HeaderValues.encode(lookalike))).isEqualTo(lookalike);
    }
}
