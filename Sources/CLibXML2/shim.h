#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU; its ICU headers clash with the ICU inside Foundation. Lectern
// never touches the encoding handlers whose layout this changes (only pointers to them).
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlsave.h>
#include <libxml/parserInternals.h>

/// xmlFree is a global function pointer, which Swift 6 will not read; this wraps it.
static inline void lectern_xml_free(void *p) { xmlFree(p); }

/// Sets libxml2's limit on element nesting (a process-wide global, `xmlParserMaxDepth`; its
/// default is 256), which Swift 6 will not assign directly.
static inline void lectern_xml_set_max_depth(unsigned int depth) { xmlParserMaxDepth = depth; }

/// libxml2 prints some errors itself (the encoding layer's "input conversion failed", I/O
/// errors) through its generic and structured error handlers, per thread, whatever the parse
/// options say. These handlers print nothing; Lectern reports what matters from the parser's
/// last error, as one line of its own.
static void lectern_xml_generic_silent(void *context, const char *message, ...) { (void)context; (void)message; }
static void lectern_xml_structured_silent(void *context, xmlErrorPtr error) { (void)context; (void)error; }
static inline void lectern_xml_silence(void) {
    xmlSetGenericErrorFunc(NULL, lectern_xml_generic_silent);
    xmlSetStructuredErrorFunc(NULL, lectern_xml_structured_silent);
}
