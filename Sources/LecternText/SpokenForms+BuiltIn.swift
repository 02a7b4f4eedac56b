extension SpokenForms {
    /// The English rules used when there is no `Config/spoken` folder: a copy of
    /// `Config/spoken/en.yml` (a test checks that the two are the same).
    public static let builtInEnglish = #"""
        # Spoken forms for English: how a careful narrator reads what espeak-ng would say letter by
        # letter or symbol by symbol. Lectern turns each rule into a pronunciation hint over whole words,
        # so every word time still points at the written text. The manifest's lexicons and the
        # document's own hints win where they cover the same words. One file per language, named by its
        # primary language subtag (en.yml applies to en, en-GB, en-US …); a language without a file gets
        # no spoken forms. Every value is a respelling (plain words), [[espeak-ng phonemes]] or /IPA/.
        #
        # abbreviations:    written form → what is said. Matched in any case (Dr., DR., dr.) as whole
        #                   words, with closing punctuation after them ("Dr.," "i.e.)"). Several words
        #                   ("i. e.") also match written together ("i.e."). A mapping says it by context,
        #                   the first that applies wins:
        #                     before_number: the next word is a number (digits or a Roman numeral)
        #                     after_number:  the word before is a number or an ordinal written with one (XIXe)
        #                     before_name:   the next word is capitalised (and not one of not_names)
        #                     after_name:    the word before is capitalised
        #                     always:        anywhere else
        #                   With none that applies, the abbreviation is read as written.
        # may_end_sentence: abbreviations whose period may also end a sentence: before a capital it does, and
        #                   the sentence ends after what is said ("pears, etc. Then" → "et cetera. Then").
        #                   Others before a capital are titles or parts of a name ("Dr. Watson", "Stanford
        #                   Jr. University").
        # cardinal_words:   after one of these (any case, with or without a final period) a Roman numeral
        #                   is a cardinal said in digits: "CHAPTER XIV." → "CHAPTER 14." A numeral that
        #                   starts a heading ("XIV.", "I") or a list paragraph ("IV. The …") is one too.
        #                   The pronoun I is "one" only in a heading or right after a capitalised
        #                   cardinal word at the end of a phrase ("Chapter I.", not "the letter I wrote").
        # note:             what is said before a note read away from its reference (`footnotes:`): a
        #                   template with {n}, the note's label ("Note {n}." → "Note 3.").
        # ordinals:         ordinal words, for 1, 2, 3 …; {ordinal} in `regnal` and `ordinal_suffixes`.
        # regnal:           how a Roman numeral (two letters or more) after a capitalised name is said:
        #                   a template with {ordinal} (from `ordinals`; a number past the list is left as
        #                   written) and {n} (the number in digits). A mapping gives forms for particular
        #                   numbers and `other` for the rest (see fr.yml).
        # regnal_names:     names of kings, queens and popes (`names`), after which a single-letter numeral
        #                   is regnal too: "Henry V" → "Henry the Fifth". The pronoun I needs more, as it
        #                   follows names as often ("Mary I think", "said Henry. I am"): punctuation or 's
        #                   right after it ("James I. He", "James I, King", "Charles I's head"), the end of
        #                   the text, one of `then` after it ("James I of England"), or one of `titles`
        #                   before the name ("King Charles I was beheaded").
        # ordinal_suffixes: endings that make a Roman numeral an ordinal anywhere (French XIXe, Ier):
        #                   ending → template.
        # not_names:        capitalised words that are no names: no regnal numeral after them, and they
        #                   do not make an abbreviation's before_name apply.
        # stars:            how a rating right after a name is read (`Hôtel du Port **`): by number of
        #                   stars 1…5 or `other`, {n} the count; without it, stars are a pause (en has none:
        #                   an English asterisk after a word is more often a footnote mark than a rating).
        # pause_symbols:    characters whose runs standing alone between words (***, * * *, ~~~, ---)
        #                   are read as `pause` (punctuation or a space: silent, though still timed).
        # urls:             the words for "." and "@" when an address is read as its domain (the
        #                   manifest's `urls: domain | skip | read`).
        # years:            how a four-digit year within `range` is read where the text shows a year: after
        #                   one of `after` ("in 1896", "c. 1850", "as early as 1500"; also with a comma
        #                   between: "the same year, 1685"), within three words after one of `months`
        #                   ("May 3, 1896"), before one of `before` ("1066 A.D."), after one of `between`
        #                   when the year before it was read so ("from 1890 to 1896"), alone in brackets
        #                   ("(1550)"), and as a decade ("the 1890s"). A range written with a dash is two
        #                   years with `range_word` between them ("1445-1459", "1206-07"). The templates say
        #                   a year in two halves, {high} (18) and {low} (96): `hundred` for 1900, `oh` for
        #                   1905, `other` for the rest, `decades` for the 1800s…1890s by their tens digit; a
        #                   round thousand (1000) is left to the engine.
        #                   Years in `as_numbers` are left to the engine (two thousand and five), as is
        #                   every number where nothing shows a year ("1896 men").
        # money:            sums read as words around the amount: `before` maps a sign written before an
        #                   amount ("£70", "$5.50", "£ 1000") to its unit's [singular, plural]; `after` does the same
        #                   for units written right after an amount, largest first, their period optional
        #                   ("17s", "17s."), in a sum that starts with a sign ("£1 17s. 9d.") or of several
        #                   of them in that order ("3l. 10s.", "2s. 6d.", "1s 6d"). Units in `alone` make a
        #                   sum by themselves with their period ("6d.", "1s.", "100l."), though not after
        #                   one of `not_after` ("the 3d." is the third, "in his 40s." a decade) nor as a
        #                   round ten of two digits or a year ("60s.", "1890s."). `words` are units that are
        #                   words of their own after an amount ("10 fr."), `words_after_sum` such units
        #                   right after a sum only ("10 fr. 50 c."). `amount` and `fraction` are the
        #                   templates: {n} the amount as written, {unit} the unit, {f} the two digits after
        #                   the point.
        # formulas:         chemical formulas (H2SO4, CO2, NaCl: element symbols and numbers, with a number
        #                   or in mixed case) are read letter by letter and their numbers as numbers ("H 2
        #                   S O 4": as written espeak-ng says "aitch two so four", "co two", "nah cee el").
        #                   `letters` says a letter where the engine would not say its name (A alone is
        #                   the article).
        language: en
        abbreviations:
          Dr.: Doctor
          Drs.: Doctors
          Mr.: Mister
          Messrs.: Messieurs
          Mrs.: Missus
          Mmes.: Mesdames
          St.: { before_name: Saint, after_name: Street }
          Ste.: { before_name: Sainte }
          Sts.: { before_name: Saints }
          Rev.: { before_name: Reverend }
          Hon.: { before_name: Honourable }
          Capt.: { before_name: Captain }
          Col.: { before_name: Colonel }
          Gen.: { before_name: General }
          Lieut.: { before_name: Lieutenant }
          Sgt.: { before_name: Sergeant }
          Prof.: { before_name: Professor }
          Gov.: { before_name: Governor }
          Sen.: { before_name: Senator }
          Jr.: { after_name: Junior }
          Sr.: { after_name: Senior }
          Bros.: { after_name: Brothers }
          Mt.: { before_name: Mount }
          Ft.: { before_name: Fort }
          Ave.: { after_name: Avenue }
          Rd.: { after_name: Road }
          i.e.: that is
          i. e.: that is
          e.g.: for example
          e. g.: for example
          '&c.': et cetera
          '&c': et cetera
          etc.: et cetera
          vs.: versus
          viz.: namely
          cf.: compare
          ibid.: ibidem
          ca.: { before_number: circa }
          No.: { before_number: number }
          Nos.: { before_number: numbers }
          Vol.: { before_number: volume }
          Vols.: { before_number: volumes }
          Ch.: { before_number: chapter }
          Chap.: { before_number: chapter }
          pp.: { before_number: pages }
          p.: { before_number: page }
        may_end_sentence: [etc., '&c.', ibid.]
        note: Note {n}.
        cardinal_words: [Chapter, Chap., Ch., Book, Part, Volume, Vol., Act, Scene, Section, Sect., Lecture, Letter, Stave,
                         Epoch, Canto, Psalm, Article, Appendix, Plate, Figure, Fig., Table, Number, No., Class, Type, Phase,
                         War, Series, Essay, Sermon, Fytte, Tome, Story, Tale, Lesson, Hymn, Sonnet, Ode, Stage, Period,
                         Vatican, Year, Day, Night, Division, Clause, Title, Schedule, Rule, Paragraph, Para., Question, p., pp.]
        ordinals: [First, Second, Third, Fourth, Fifth, Sixth, Seventh, Eighth, Ninth, Tenth,
                   Eleventh, Twelfth, Thirteenth, Fourteenth, Fifteenth, Sixteenth, Seventeenth, Eighteenth, Nineteenth, Twentieth,
                   Twenty-first, Twenty-second, Twenty-third, Twenty-fourth, Twenty-fifth, Twenty-sixth, Twenty-seventh,
                   Twenty-eighth, Twenty-ninth, Thirtieth, Thirty-first, Thirty-second, Thirty-third, Thirty-fourth,
                   Thirty-fifth, Thirty-sixth, Thirty-seventh, Thirty-eighth, Thirty-ninth, Fortieth]
        regnal: the {ordinal}
        regnal_names:
          names: [Henry, Edward, James, George, William, Charles, Richard, Louis, Philip, Elizabeth, Mary, Anne, John, Stephen,
                  Matilda, Harold, Edmund, Malcolm, David, Robert, Alexander, Francis, Pius, Leo, Gregory, Innocent, Clement,
                  Urban, Boniface, Benedict, Paul, Julius, Sixtus, Martin, Nicholas, Celestine, Eugene, Eugenius, Adrian, Hadrian,
                  Felix, Victor, Napoleon, Frederick, Peter, Catherine, Ivan, Ferdinand, Alfonso, Emmanuel, Umberto, Amadeus,
                  Otto, Conrad, Konrad, Rudolph, Rudolf, Ludwig, Friedrich, Wilhelm, Heinrich, Karl, Joseph, Leopold, Maximilian,
                  Sigismund, Casimir, Ladislaus, Christian, Gustav, Gustavus, Eric, Magnus, Olaf, Haakon, Sancho, Pedro, Manuel,
                  Isabella, Margaret, Christina, Ptolemy, Rameses, Ramses, Seti, Darius, Xerxes, Antiochus, Constantine,
                  Justinian, Theodosius, Basil, Michael, Baldwin, Albert, Roger]
          titles: [King, Queen, Pope, Emperor, Empress, Tsar, Czar, Tsarina, Czarina, Kaiser, Prince, Princess, Duke, Duchess,
                   Elector, Pharaoh, Sultan, Shah, Saint, St]
          then: [of]
        not_names: [The, A, An, And, But, Or, Nor, Of, In, On, At, To, For, By, With, From, As, If, So, Not, No, Yes, He, She,
                    It, We, They, You, I, His, Her, Its, Our, Their, My, Your, This, That, These, Those, Then, When, Where,
                    What, Who, How, Why, There, Here, See, Was, Is, Are, Were, All, Some, One, Now, Oh, O, Ah]
        pause_symbols: '*~+-=#_•·'
        pause: ','
        urls: { dot: dot, at: at }
        years:
          range: [1000, 2099]
          as_numbers: [2000, 2009]
          after: [in, of, since, until, till, from, by, during, before, after, about, around, between, circa, c., ca., b., d., fl.,
                  year, spring, summer, autumn, fall, winter, Easter, Christmas, Michaelmas, anno, dated, born, died, up to,
                  as early as, as late as, as far back as, as long ago as, not until, the year]
          before: [A.D., AD, B.C., BC, B.C.E., BCE, C.E., CE]
          months: [January, February, March, April, May, June, July, August, September, October, November, December,
                   Jan., Feb., Mar., Apr., Jun., Jul., Aug., Sep., Sept., Oct., Nov., Dec.]
          between: [to, and, or, till, until]
          range_word: to
          hundred: '{high} hundred'
          oh: '{high} oh {low}'
          other: '{high} {low}'
          decades: ['{high} hundreds', '{high} tens', '{high} twenties', '{high} thirties', '{high} forties', '{high} fifties',
                    '{high} sixties', '{high} seventies', '{high} eighties', '{high} nineties']
        money:
          before: { '£': [pound, pounds], '$': [dollar, dollars], '€': [euro, euros] }
          after: { l.: [pound, pounds], s.: [shilling, shillings], d.: [penny, pence] }
          alone: [l., s., d.]
          not_after: [the, his, her, its, their, our, my, your, early, late, mid]
          words: { fr.: [franc, francs], frs.: [franc, francs], fcs.: [franc, francs] }
          words_after_sum: { c.: [centime, centimes], cts.: [centime, centimes], cent.: [centime, centimes] }
          amount: '{n} {unit}'
          fraction: '{n} {unit} {f}'
        formulas:
          letters: { A: eh }
        """#
}
