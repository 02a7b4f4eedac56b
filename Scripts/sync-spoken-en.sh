#!/usr/bin/env bash
# Copies Config/spoken/en.yml into Sources/LecternText/SpokenForms+BuiltIn.swift, the English
# spoken-form rules `lectern` uses without a Config/spoken folder (SpokenFormsTests checks that
# the two agree). Usage: Scripts/sync-spoken-en.sh
set -euo pipefail
cd "$(dirname "$0")/.."
{
    echo 'extension SpokenForms {'
    echo '    /// The English rules used when there is no `Config/spoken` folder: a copy of'
    echo '    /// `Config/spoken/en.yml` (a test checks that the two are the same).'
    echo '    public static let builtInEnglish = #"""'
    sed -e 's/^\(.\)/        \1/' Config/spoken/en.yml
    echo '        """#'
    echo '}'
} > Sources/LecternText/SpokenForms+BuiltIn.swift
