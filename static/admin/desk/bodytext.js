'use strict';
// The one-text mode's cite picker, keyboard first. "Insert cite" (or Ctrl+K in the text) opens
// it: type a manifest's title, publisher or id and Enter picks the highlighted manifest; type a
// claim's words and Enter adds the highlighted claim (never the typed words); Enter with nothing
// typed writes [^manifest id: claim id, …] at the cursor. "Same cite as above" writes again the
// last cite before the cursor. The manifests and claims come from the desk's own lookups only
// when the picker opens, so the page carries none of them.
{
    const MARKER = /\[\^[^\s\[\]:,^]+:[^\[\]]*\]/g;

    function element(tag, attrs = {}, text = '') {
        const made = document.createElement(tag);
        for (const [name, value] of Object.entries(attrs)) {
            made.setAttribute(name, value);
        }
        made.textContent = text;
        return made;
    }

    async function fetchJson(url) {
        const reply = await fetch(url, {credentials: 'same-origin', headers: {Accept: 'application/json'}});
        return reply.ok ? reply.json() : {results: []};
    }

    function words(text) {
        return text.toLowerCase().split(/\s+/).filter(Boolean);
    }

    // One list of choices under a search box: arrows move the highlight, Enter picks it.
    class Choices {
        constructor(box, list, onPick) {
            this.box = box;
            this.list = list;
            box.setAttribute('role', 'combobox');
            box.setAttribute('aria-controls', list.id);
            box.setAttribute('aria-autocomplete', 'list');
            this.onPick = onPick;
            this.items = [];
            this.current = -1;
            list.addEventListener('mousedown', (event) => event.preventDefault());
            list.addEventListener('click', (event) => {
                const item = event.target.closest('li');
                if (item) {
                    this.onPick(this.items[Number(item.dataset.index)]);
                }
            });
        }

        show(items) {
            this.items = items;
            this.current = items.length ? 0 : -1;
            this.list.replaceChildren(...items.map((item, index) => {
                return element('li', {role: 'option', 'data-index': String(index), id: `${this.list.id}-${index}`}, item.text);
            }));
            this.mark();
        }

        mark() {
            [...this.list.children].forEach((li, index) => li.setAttribute('aria-selected', String(index === this.current)));
            const chosen = this.list.children[this.current];
            this.box.setAttribute('aria-expanded', String(this.items.length > 0));
            if (chosen) {
                this.box.setAttribute('aria-activedescendant', chosen.id);
                chosen.scrollIntoView({block: 'nearest'});
            } else {
                this.box.removeAttribute('aria-activedescendant');
            }
        }

        key(event) {
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                event.preventDefault();
                if (this.items.length) {
                    const step = event.key === 'ArrowDown' ? 1 : -1;
                    this.current = (this.current + step + this.items.length) % this.items.length;
                    this.mark();
                }
                return true;
            }
            return false;
        }

        highlighted() {
            return this.items[this.current];
        }
    }

    function setUp(area) {
        const tools = element('div', {class: 'desk-body-tools'});
        const insert = element('button', {type: 'button', class: 'button desk-insert-cite'}, 'Insert cite');
        const same = element('button', {type: 'button', class: 'button desk-same-cite'}, 'Same cite as above');
        const note = element('span', {class: 'desk-body-note', 'aria-live': 'polite'});
        tools.append(insert, same, note);
        area.before(tools);

        const dialog = element('dialog', {class: 'desk-picker', 'aria-label': 'Insert a cite'});
        const manifestBox = element('input', {type: 'search', class: 'desk-picker-manifest', 'aria-label': 'Manifest: its title, publisher or id', placeholder: 'Manifest: title, publisher or id', autocomplete: 'off'});
        const manifests = element('ul', {class: 'desk-picker-list', id: 'desk-picker-manifests', role: 'listbox'});
        const chosenManifest = element('p', {class: 'desk-picker-chosen-manifest'});
        const claimBox = element('input', {type: 'search', class: 'desk-picker-claim', 'aria-label': 'Claims: their words', placeholder: 'Claims: type their words, Enter adds one', autocomplete: 'off', disabled: ''});
        const claims = element('ul', {class: 'desk-picker-list', id: 'desk-picker-claims', role: 'listbox'});
        const chosenClaims = element('ol', {class: 'desk-picker-chosen'});
        const warning = element('p', {class: 'desk-picker-note', 'aria-live': 'polite'});
        const buttons = element('p', {class: 'desk-picker-buttons'});
        const write = element('button', {type: 'button', class: 'button default desk-picker-insert'}, 'Insert');
        const cancel = element('button', {type: 'button', class: 'button desk-picker-cancel'}, 'Cancel');
        buttons.append(write, cancel);
        dialog.append(manifestBox, manifests, chosenManifest, claimBox, claims, chosenClaims, warning, buttons);
        document.body.append(dialog);

        let manifestId = '';
        let allClaims = [];
        let picked = [];
        let cursor = 0;
        let searching = 0;

        const manifestChoices = new Choices(manifestBox, manifests, pickManifest);
        const claimChoices = new Choices(claimBox, claims, pickClaim);

        function open() {
            cursor = area.selectionEnd;
            manifestId = '';
            allClaims = [];
            picked = [];
            manifestBox.value = '';
            claimBox.value = '';
            claimBox.disabled = true;
            chosenManifest.textContent = '';
            chosenClaims.replaceChildren();
            warning.textContent = '';
            claimChoices.show([]);
            dialog.showModal();
            manifestBox.focus();
            searchManifests();
        }

        async function searchManifests() {
            const asked = ++searching;
            const reply = await fetchJson(`${area.dataset.manifestsUrl}?term=${encodeURIComponent(manifestBox.value.trim())}`);
            if (asked === searching) {
                manifestChoices.show(reply.results);
            }
        }

        async function pickManifest(manifest) {
            if (!manifest) {
                return;
            }
            manifestId = manifest.id;
            chosenManifest.textContent = manifest.text;
            manifestChoices.show([]);
            const reply = await fetchJson(`${area.dataset.claimsUrl}?manifest_id=${encodeURIComponent(manifestId)}`);
            allClaims = reply.results;
            claimBox.disabled = false;
            claimBox.focus();
            filterClaims();
        }

        function filterClaims() {
            const wanted = words(claimBox.value);
            claimChoices.show(allClaims.filter((claim) => !picked.includes(claim.id) && wanted.every((word) => claim.text.toLowerCase().includes(word))));
        }

        function pickClaim(claim) {
            if (!claim) {
                return;
            }
            picked.push(claim.id);
            chosenClaims.append(element('li', {}, claim.text));
            claimBox.value = '';
            filterClaims();
            claimBox.focus();
        }

        function writeAt(text, at) {
            const before = area.value.slice(0, at);
            const spaced = before && !/\s$/.test(before) ? ` ${text}` : text;
            area.focus();
            area.setSelectionRange(at, at);
            // execCommand keeps the browser's undo; where it is missing, the value is set.
            if (!document.execCommand('insertText', false, spaced)) {
                area.value = before + spaced + area.value.slice(at);
                area.setSelectionRange(at + spaced.length, at + spaced.length);
            }
            area.dispatchEvent(new Event('input', {bubbles: true}));
        }

        function insertCite() {
            if (!manifestId || !picked.length) {
                warning.textContent = 'A cite needs a manifest and at least one of its claims.';
                (manifestId ? claimBox : manifestBox).focus();
                return;
            }
            dialog.close();
            writeAt(`[^${manifestId}: ${picked.join(', ')}]`, cursor);
            note.textContent = '';
        }

        function sameAsAbove() {
            const at = area.selectionEnd;
            const above = area.value.slice(0, area.value.lastIndexOf('\n', at - 1) + 1).match(MARKER);
            if (!above) {
                note.textContent = 'No cite above the cursor to repeat.';
                return;
            }
            note.textContent = '';
            writeAt(above[above.length - 1], at);
        }

        insert.addEventListener('click', open);
        same.addEventListener('click', sameAsAbove);
        write.addEventListener('click', insertCite);
        cancel.addEventListener('click', () => { dialog.close(); area.focus(); });
        area.addEventListener('keydown', (event) => {
            if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
                event.preventDefault();
                open();
            }
        });
        let typing = 0;
        manifestBox.addEventListener('input', () => {
            clearTimeout(typing);
            typing = setTimeout(searchManifests, 150);
        });
        manifestBox.addEventListener('keydown', (event) => {
            if (!manifestChoices.key(event) && event.key === 'Enter') {
                event.preventDefault();
                pickManifest(manifestChoices.highlighted());
            }
        });
        claimBox.addEventListener('input', filterClaims);
        claimBox.addEventListener('keydown', (event) => {
            if (!claimChoices.key(event) && event.key === 'Enter') {
                event.preventDefault();
                if (claimBox.value.trim()) {
                    pickClaim(claimChoices.highlighted());
                } else {
                    insertCite();
                }
            }
        });
    }

    // Errors and the last checks' problems say "Line 14, …": that line number takes the editor there.
    function selectLine(area, number) {
        const lines = area.value.split('\n');
        const start = lines.slice(0, number - 1).reduce((at, line) => at + line.length + 1, 0);
        const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 18;
        area.scrollTop = Math.max(0, (number - 3) * lineHeight);
        area.focus();
        area.setSelectionRange(start, start + (lines[number - 1] || '').length);
    }

    function linkLines(area) {
        const row = area.closest('.form-row') || document;
        for (const item of row.querySelectorAll('.errorlist li, .desk-problems li')) {
            const text = item.firstChild;
            const found = text && text.nodeType === Node.TEXT_NODE && text.textContent.match(/^Line (\d+)/);
            if (!found) {
                continue;
            }
            const go = element('button', {type: 'button', class: 'desk-goto-line', title: 'Select this line in the text'}, found[0]);
            go.addEventListener('click', () => selectLine(area, Number(found[1])));
            text.textContent = text.textContent.slice(found[0].length);
            item.prepend(go);
        }
    }

    document.addEventListener('DOMContentLoaded', () => {
        for (const area of document.querySelectorAll('textarea.desk-body')) {
            setUp(area);
            linkLines(area);
        }
    });
}
