package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.HeaderValues.InvalidHeaderValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HeaderValuesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
            "us-west1|us-west1",
            "Hello, 世界|=?base64?SGVsbG8sIOS4lueVjA==?=",
            "' padded '|=?base64?IHBhZGRlZCA=?=",
            "=?base64?literal?=|=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
            "file:///projects/myapp/config.json|file:///projects/myapp/config.json"
    })
    void encodesTheSpecExamples(String value, String header) {
        assertThat(HeaderValues.encode(value)).isEqualTo(header);
        assertThat(HeaderValues.decode(header)).isEqualTo(value);
    }

    @Test
    void encodesLineBreaksAndTabs() {
        assertThat(HeaderValues.encode("line1\nline2")).isEqualTo("=?base64?bGluZTEKbGluZTI=?=");
        assertThat(HeaderValues.encode("a\tb")).startsWith("=?base64?");
        assertThat(HeaderValues.encode("a\r\nSet-Cookie: x")).doesNotContain("\r", "\n");
    }

    @Test
    void encodesEmptyValuesSoThatTheHeaderIsNeverBlank() {
        assertThat(HeaderValues.encode("")).isEqualTo("=?base64??=");
        assertThat(HeaderValues.decode("=?base64??=")).isEmpty();
    }

    @Test
    void encodesValuesWhoseSentinelPrefixAndSuffixOverlap() {
        assertThat(HeaderValues.encode("=?base64?=")).isNotEqualTo("=?base64?=");
        assertThat(HeaderValues.decode(HeaderValues.encode("=?base64?="))).isEqualTo("=?base64?=");
    }

    @Test
    void rejectsReceivedValuesWithCharactersNoHeaderMayHold() {
        assertThatThrownBy(() -> HeaderValues.decode("a\r\nb")).isInstanceOf(InvalidHeaderValueException.class);
        assertThatThrownBy(() -> HeaderValues.decode("café")).isInstanceOf(InvalidHeaderValueException.class);
    }

    @Test
    void acceptsReceivedValuesThatAreValidButWouldHaveBeenEncoded() {
        assertThat(HeaderValues.decode("a\tb")).isEqualTo("a\tb");
        assertThat(HeaderValues.decode(" padded ")).isEqualTo(" padded ");
    }

    @Test
    void rejectsSentinelsThatAreNotBase64OfUtf8() {
        assertThatThrownBy(() -> HeaderValues.decode("=?base64?not base64!?=")).isInstanceOf(InvalidHeaderValueException.class);
        assertThatThrownBy(() -> HeaderValues.decode("=?base64?/w==?=")).isInstanceOf(InvalidHeaderValueException.class);
        assertThatThrownBy(() -> HeaderValues.decode("=?base64?=")).isInstanceOf(InvalidHeaderValueException.class);
    }

    @Test
    void markersAreCaseSensitive() {
        assertThat(HeaderValues.decode("=?BASE64?SGk=?=")).isEqualTo("=?BASE64?SGk=?=");
    }
}
