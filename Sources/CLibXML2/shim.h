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

#include <libxml/SAX2.h>

/// An entity declaration stops the parser at once (after recording the declaration, so the
/// caller can name it): with `XML_PARSE_HUGE` libxml2 no longer bounds entity expansion, so an
/// entity must never reach a reference (billion laughs, XXE). Lectern refuses any document that
/// declares one.
static void lectern_xml_entity_refused(void *ctx, const xmlChar *name, int type, const xmlChar *publicId,
                                       const xmlChar *systemId, xmlChar *content) {
    xmlSAX2EntityDecl(ctx, name, type, publicId, systemId, content);
    xmlStopParser((xmlParserCtxtPtr)ctx);
}
static void lectern_xml_unparsed_entity_refused(void *ctx, const xmlChar *name, const xmlChar *publicId,
                                                const xmlChar *systemId, const xmlChar *notationName) {
    xmlSAX2EntityDecl(ctx, name, XML_EXTERNAL_GENERAL_UNPARSED_ENTITY, publicId, systemId, NULL);
    (void)notationName;
    xmlStopParser((xmlParserCtxtPtr)ctx);
}
/// Installs the refusing entity handlers on a parser context's SAX handler.
static inline void lectern_xml_refuse_entities(xmlParserCtxtPtr ctxt) {
    if (ctxt != NULL && ctxt->sax != NULL) {
        ctxt->sax->entityDecl = lectern_xml_entity_refused;
        ctxt->sax->unparsedEntityDecl = lectern_xml_unparsed_entity_refused;
    }
}

/// htmlReadMemory's own steps (libxml2 2.9), keeping the parser context so that the caller can
/// tell whether the parser stopped before the end: an XML memory context given the HTML SAX
/// handler (as htmlReadMemory makes it; an HTML context would guess a file without a charset to
/// be Latin-1, not UTF-8), then `options`.
static inline xmlParserCtxtPtr lectern_html_parser(const char *buffer, int size, int options) {
    xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(buffer, size);
    if (ctxt == NULL) return NULL;
    if (ctxt->sax != NULL) xmlSAX2InitHtmlDefaultSAXHandler(ctxt->sax);
    htmlCtxtUseOptions(ctxt, options);
    return ctxt;
}

/// Parses and hands the document over: the context, freed after, keeps no part of it.
static inline htmlDocPtr lectern_html_parse(xmlParserCtxtPtr ctxt) {
    htmlParseDocument(ctxt);
    htmlDocPtr doc = ctxt->myDoc;
    ctxt->myDoc = NULL;
    if (ctxt->dictNames && doc != NULL && doc->dict == ctxt->dict) ctxt->dict = NULL;
    return doc;
}
