/*
 * A stand-in for ICU's 31 MB data library (libicudata.so.NN), the equivalent of ICU's own
 * "stubdata": the exported entry point icudtNN_dat is a data package with an empty table of
 * contents. Compiled by packaging/catalogue-desktop.spec with -DICU_ENTRY=icudtNN_dat.
 *
 * libQt6Core links ICU, but Qt keeps its own Unicode tables, CLDR locale data (number and date
 * formats), case mapping, text boundaries and time zones (tz database) - none of which the app
 * needs ICU data for. What ICU data would add: locale-aware collation (QCollator falls back to
 * plain code-point comparison and warns "Could not create collator") and legacy text codecs
 * (QStringDecoder("windows-1252") is invalid; the app uses UTF-8 throughout, in Python).
 * Build with CATALOGUE_DESKTOP_BUILD_FULL_ICU=1 to bundle the real data instead.
 */
#include <stdint.h>

typedef struct {
    uint16_t headerSize; uint8_t magic1, magic2;                 /* MappedData */
    uint16_t size, reservedWord;                                  /* UDataInfo */
    uint8_t isBigEndian, charsetFamily, sizeofUChar, reservedByte;
    uint8_t dataFormat[4], formatVersion[4], dataVersion[4];
    char padding[8];
    uint32_t count, reserved;                                     /* table of contents */
    struct { const char *name; const void *data; } toc[1];
} IcuDataHeader;

__attribute__((visibility("default"))) const IcuDataHeader ICU_ENTRY = {
    32, 0xda, 0x27,
    20, 0, 0 /* little-endian */, 0 /* ASCII */, 2, 0,
    {0x54, 0x6f, 0x43, 0x50} /* "ToCP" */, {1, 0, 0, 0}, {0, 0, 0, 0},
    {0}, 0, 0, {{0, 0}}
};
