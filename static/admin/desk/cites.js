'use strict';
// Cites on the story page: the manifest is chosen from the store by autocomplete (select2, as
// Django admin ships it), and its claims are then offered with their text. A claim id may be
// typed (select2 tags) for a manifest the store lacks; the form says when it is unknown. Enter
// picks the highlighted claim, never the typed words.
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

    async function loadClaims(select) {
        const claims = claimsFor(select);
        if (!claims) {
            return;
        }
        const url = claims.dataset.claimsUrl + '?manifest_id=' + encodeURIComponent(select.value);
        // The box is shut while the claims load: opened before they arrive, select2 would offer
        // only what was typed, and would not refresh its open list when they came.
        claims.disabled = true;
        $(claims).trigger('change');
        try {
            const reply = await (await fetch(url, {credentials: 'same-origin'})).json();
            claims.replaceChildren(...reply.results.map((claim) => new Option(claim.text, claim.id, false, false)));
        } finally {
            claims.disabled = false;
            $(claims).trigger('change');
        }
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
            });
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
