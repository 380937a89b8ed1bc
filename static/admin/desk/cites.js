'use strict';
// Cites on the story page: the manifest is chosen from the store by autocomplete (select2, as
// Django admin ships it), and its claims are then offered with their text. A claim id may be
// typed (select2 tags) for a manifest the store lacks; the form says when it is unknown. Enter
// picks the highlighted claim, never the typed words. A saved cite's box comes with its chosen
// claims only (a long story has hundreds of boxes); the manifest's others are fetched when the
// box is first focused or opened.
{
    const $ = django.jQuery;
    // What a typed claim id may look like: one word of letters, digits, '-' or '_'.
    const CLAIM_ID = /^[A-Za-z0-9_-]{1,64}$/;

    function isTemplate(element) {
        // nested-admin's empty forms are copied when a row is added; only real rows are set up.
        return element.name.includes('__prefix__') || /-empty(-|$)/.test(element.name);
    }

    function knowsClaims(claims) {
        // The store's claims are offered with their text; an id typed for an unknown manifest is its own text.
        return [...claims.options].some((option) => option.text !== option.value);
    }

    function claimsFor(select) {
        return document.getElementById(select.id.replace(/manifest_id$/, 'claim_ids'));
    }

    function manifestFor(claims) {
        return document.getElementById(claims.id.replace(/claim_ids$/, 'manifest_id'));
    }

    async function fetchClaims(claims, manifestId) {
        const url = claims.dataset.claimsUrl + '?manifest_id=' + encodeURIComponent(manifestId);
        const reply = await (await fetch(url, {credentials: 'same-origin'})).json();
        return reply.results.map((claim) => new Option(claim.text, claim.id, false, false));
    }

    // Each box keeps the load of its manifest's claims (deskClaims, a promise), so a box is
    // loaded once, and says when it is done (data-desk-claims="loaded").
    function loading(claims, work) {
        delete claims.dataset.deskClaims;
        claims.deskClaims = work.finally(() => {
            claims.dataset.deskClaims = 'loaded';
            $(claims).trigger('change');
        });
        return claims.deskClaims;
    }

    function loadClaims(select) {
        // A manifest was picked: its claims replace the box's.
        const claims = claimsFor(select);
        if (!claims) {
            return;
        }
        // The box is shut while the claims load: opened before they arrive, select2 would offer
        // only what was typed, and would not refresh its open list when they came.
        claims.disabled = true;
        $(claims).trigger('change');
        loading(claims, fetchClaims(claims, select.value).then((found) => claims.replaceChildren(...found)))
            .finally(() => {
                claims.disabled = false;
                $(claims).trigger('change');
            });
    }

    function addOtherClaims(claims) {
        // A saved cite's box: the manifest's other claims after the chosen ones, which stay
        // chosen and in their order. Not shut meanwhile, since the box may have the focus, which
        // a disabled box loses; it is kept from opening instead (select2:opening below).
        const manifest = manifestFor(claims);
        if (!claims.deskClaims && manifest && manifest.value) {
            const manifestId = manifest.value;
            loading(claims, fetchClaims(claims, manifestId).then((found) => {
                const listed = new Set([...claims.options].map((option) => option.value));
                if (manifest.value === manifestId) {
                    claims.append(...found.filter((option) => !listed.has(option.value)));
                }
            }));
        }
        return claims.deskClaims || Promise.resolve();
    }

    function setUp(root) {
        root.querySelectorAll('select.desk-manifest').forEach((select) => {
            if (select.dataset.deskReady || isTemplate(select)) {
                return;
            }
            select.dataset.deskReady = '1';
            $(select).select2({
                ajax: {
                    url: select.dataset.autocompleteUrl,
                    dataType: 'json',
                    delay: 200,
                    data: (params) => ({term: params.term, page: params.page}),
                },
                placeholder: 'Search the manifest store: title, publisher or id',
                width: '100%',
            }).on('select2:select', () => loadClaims(select));
        });
        root.querySelectorAll('select.desk-claims').forEach((claims) => {
            if (claims.dataset.deskReady || isTemplate(claims)) {
                return;
            }
            claims.dataset.deskReady = '1';
            $(claims).select2({
                tags: true,
                width: '100%',
                placeholder: 'Claims of the manifest: type their words',
                // Enter picks the highlighted claim of the manifest, never the typed text: a typed
                // id is offered only for a manifest the store lacks (no claims to offer), last.
                createTag: (params) => {
                    const term = params.term.trim();
                    return !knowsClaims(claims) && CLAIM_ID.test(term) ? {id: term, text: term} : null;
                },
                insertTag: (data, tag) => { data.push(tag); },
            }).on('select2:opening', (event) => {
                // Opened before its claims arrive, select2 would list only the chosen ones and not
                // refresh the open list when the others came: it opens once they are in.
                const manifest = manifestFor(claims);
                if (manifest && manifest.value && claims.dataset.deskClaims !== 'loaded') {
                    event.preventDefault();
                    addOtherClaims(claims).then(() => $(claims).select2('open'));
                }
            });
            $(claims).next('.select2').on('focusin', () => addOtherClaims(claims));
        });
    }

    document.addEventListener('DOMContentLoaded', () => {
        setUp(document);
        new MutationObserver((changes) => {
            if (changes.some((change) => change.addedNodes.length)) {
                setUp(document);
            }
        }).observe(document.getElementById('content') || document.body, {childList: true, subtree: true});
    });
}
