export let words = ['done'];
