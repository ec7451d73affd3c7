package dev.mcpx.protocol;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JsonEncoding;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.SerializableString;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.io.CharacterEscapes;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonFactoryBuilder;
import tools.jackson.core.json.UTF8JsonGenerator;
import tools.jackson.core.json.UTF8StreamJsonParser;
import tools.jackson.core.sym.ByteQuadsCanonicalizer;

/**
 * Jackson's JSON factory, except that a string of plain ASCII (no control character, quote or
 * backslash) is copied as bytes: parsed from UTF-8 input without going through chars, and written
 * with a long one's bytes as they are. Text of tens of KB (a file a tool reads or writes) passes
 * every hop twice each way, and at C1, as bin/mcpx runs on 2 cores, Jackson's char-by-char loops
 * for it were most of such a call's CPU. Every other string takes Jackson's own path.
 */
final class AsciiCopyJsonFactory extends JsonFactory {

    /** Below this a written string is not worth its extra copy to bytes. */
    static final int MIN_COPIED_CHARS = 64;

    AsciiCopyJsonFactory() {
        this(JsonFactory.builder());
    }

    AsciiCopyJsonFactory(JsonFactoryBuilder settings) {
        super(settings);
    }

    private AsciiCopyJsonFactory(AsciiCopyJsonFactory source) {
        super(source);
    }

    @Override
    public JsonFactory copy() {
        return new AsciiCopyJsonFactory(this);
    }

    @Override
    protected JsonParser _createParser(ObjectReadContext readContext, IOContext io, byte[] data, int offset, int length) {
        if (!surelyUtf8(data, offset, length) || !TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES.enabledIn(_factoryFeatures)) {
            return super._createParser(readContext, io, data, offset, length);
        }
        _checkRangeBoundsForByteArray(data, offset, length);
        _streamReadConstraints.validateDocumentLength(length);
        io.setEncoding(JsonEncoding.UTF8);
        return new AsciiCopyParser(readContext, io,
                readContext.getStreamReadFeatures(_streamReadFeatures),
                readContext.getFormatReadFeatures(_formatReadFeatures),
                _byteSymbolCanonicalizer.makeChild(_factoryFeatures), data, offset, offset + length);
    }

    /**
     * What Jackson's encoding detection would call UTF-8 without a byte-order mark: a first byte of
     * JSON text is ASCII and not NUL, and neither is a second byte NUL (it is in UTF-16 and 32).
     */
    private static boolean surelyUtf8(byte[] data, int offset, int length) {
        return length >= 2 && data[offset] > 0 && data[offset + 1] != 0;
    }

    @Override
    protected JsonGenerator _createUTF8Generator(ObjectWriteContext writeContext, IOContext io, OutputStream out) {
        CharacterEscapes escapes = writeContext.getCharacterEscapes();
        if (escapes != null || _characterEscapes != null || _maximumNonEscapedChar != 0 || _quoteChar != '"') {
            return super._createUTF8Generator(writeContext, io, out);
        }
        return new AsciiCopyGenerator(writeContext, io,
                writeContext.getStreamWriteFeatures(_streamWriteFeatures),
                writeContext.getFormatWriteFeatures(_formatWriteFeatures), out,
                writeContext.getRootValueSeparator(_rootValueSeparator));
    }

    /**
     * The length of the plain ASCII run at {@code from} that a closing quote ends, or -1 when
     * a backslash, a control character or a non-ASCII byte comes first, or no quote before {@code end}.
     */
    static int plainRun(byte[] bytes, int from, int end) {
        for (int i = from; i < end; i++) {
            byte b = bytes[i];
            if (b == '"') {
                return i - from;
            }
            if (b < 0x20 || b == '\\') {
                return -1;
            }
        }
        return -1;
    }

    private static final class AsciiCopyParser extends UTF8StreamJsonParser {

        AsciiCopyParser(ObjectReadContext readContext, IOContext io, int streamFeatures, int formatFeatures,
                        ByteQuadsCanonicalizer names, byte[] data, int start, int end) {
            super(readContext, io, streamFeatures, formatFeatures, null, names, data, start, end, 0, false);
        }

        /** Called once per string value, its opening quote consumed. */
        @Override
        protected String _finishAndReturnString() {
            int length = plainRun(_inputBuffer, _inputPtr, _inputEnd);
            if (length < 0) {
                return super._finishAndReturnString();
            }
            _streamReadConstraints.validateStringLength(length);
            String text = new String(_inputBuffer, _inputPtr, length, StandardCharsets.ISO_8859_1);
            _textBuffer.resetWithString(text);
            _inputPtr += length + 1;
            return text;
        }
    }

    private static final class AsciiCopyGenerator extends UTF8JsonGenerator {

        /** Bytes that stop a copy: control characters, quote, backslash, non-ASCII, and '?' to check. */
        private static final boolean[] SPECIAL = new boolean[256];

        static {
            for (int b = 0; b < 256; b++) {
                SPECIAL[b] = b < 0x20 || b >= 0x80 || b == '"' || b == '\\' || b == '?';
            }
        }

        AsciiCopyGenerator(ObjectWriteContext writeContext, IOContext io, int streamFeatures, int formatFeatures,
                           OutputStream out, SerializableString rootSeparator) {
            super(writeContext, io, streamFeatures, formatFeatures, out, rootSeparator, null, null, 0, '"');
        }

        @Override
        public JsonGenerator writeString(String text) {
            if (text != null && text.length() >= MIN_COPIED_CHARS) {
                // a copy for text held as Latin-1, as all-ASCII text is; UTF-8 would scan it first
                byte[] latin1 = text.getBytes(StandardCharsets.ISO_8859_1);
                if (needsNoEscape(latin1, text)) {
                    return writeRawUTF8String(latin1, 0, latin1.length);
                }
            }
            return super.writeString(text);
        }

        /**
         * True when every byte is ASCII other than a control character, quote or backslash, and is
         * the text's own char: a char beyond Latin-1 encodes as '?'.
         */
        private static boolean needsNoEscape(byte[] latin1, String text) {
            if (latin1.length != text.length()) {
                return false;
            }
            for (int i = 0; i < latin1.length; i++) {
                if (SPECIAL[latin1[i] & 0xFF] && (latin1[i] != '?' || text.charAt(i) != '?')) {
                    return false;
                }
            }
            return true;
        }
    }
}
