'use strict';
// The story page as a writer expects it: a word count under each paragraph and for the whole
// story, kept current as they type, and a warning before leaving the page with unsaved changes.
{
    const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.,%-]*/gu;

    const MARKER = /\[\^[^\s\[\]:,^]+:[^\[\]]*\]/g;

    function countWords(text) {
        return (text.match(WORD) || []).length;
    }

    function isBody(element) {
        return element.tagName === 'TEXTAREA' && element.name === 'body';
    }

    function isParagraph(element) {
        return isBody(element) || (element.tagName === 'TEXTAREA' && /-paragraphs-\d+-markdown$/.test(element.name));
    }

    function paragraphWords(textarea) {
        if (!isBody(textarea)) {
            return countWords(textarea.value);
        }
        // The one text: the words of its paragraphs, after the first section's heading, cites left out.
        let words = 0;
        let inSections = false;
        for (const line of textarea.value.split('\n')) {
            if (/^##(\s|$)/.test(line)) {
                inSections = true;
            } else if (inSections) {
                words += countWords(line.replace(MARKER, ''));
            }
        }
        return words;
    }

    function say(count) {
        return count === 1 ? '1 word' : count.toLocaleString('en') + ' words';
    }

    function countFor(textarea) {
        let count = textarea.parentElement.querySelector('.desk-words');
        if (!count) {
            count = document.createElement('p');
            count.className = 'desk-words help';
            count.setAttribute('aria-live', 'polite');
            textarea.after(count);
        }
        return count;
    }

    function refresh(total, textarea) {
        if (textarea) {
            countFor(textarea).textContent = say(paragraphWords(textarea));
        }
        let words = 0;
        for (const each of document.querySelectorAll('textarea')) {
            if (isParagraph(each) && !each.closest('.empty-form, .djn-empty-form') && !each.name.includes('__prefix__')) {
                words += paragraphWords(each);
            }
        }
        total.textContent = 'The story: ' + say(words) + ' in its paragraphs';
    }

    document.addEventListener('DOMContentLoaded', () => {
        const form = document.getElementById('story_form');
        if (!form) {
            return;
        }
        const total = document.createElement('p');
        total.className = 'desk-words desk-words-total';
        total.setAttribute('aria-live', 'polite');
        form.prepend(total);
        for (const textarea of form.querySelectorAll('textarea')) {
            if (isParagraph(textarea) && !textarea.name.includes('__prefix__')) {
                countFor(textarea).textContent = say(paragraphWords(textarea));
            }
        }
        refresh(total, null);

        let unsaved = false;
        form.addEventListener('input', (event) => {
            unsaved = true;
            if (isParagraph(event.target)) {
                refresh(total, event.target);
            }
        });
        form.addEventListener('change', () => { unsaved = true; });
        form.addEventListener('submit', () => { unsaved = false; });
        window.addEventListener('beforeunload', (event) => {
            if (unsaved) {
                event.preventDefault();
                event.returnValue = '';
            }
        });
    });
}
