import { describe, expect, it } from 'vitest';
import { findPasswordProblems, similarity } from './passwords.models.js';

describe('password rules', () => {
  it('accepts a decent password', () => {
    expect(findPasswordProblems('Purple-Tractor-19', { email: 'ann@example.com', firstName: 'Ann' })).toEqual(
      [],
    );
  });

  it.each([
    ['short', 'Ab1-x', ['This password is too short. It must contain at least 8 characters.']],
    ['common', 'password123', ['This password is too common.']],
    ['common regardless of case', 'PassWord123', ['This password is too common.']],
    ['numeric', '73917246512', ['This password is entirely numeric.']],
    [
      'everything at once',
      '1234567',
      [
        'This password is too short. It must contain at least 8 characters.',
        'This password is too common.',
        'This password is entirely numeric.',
      ],
    ],
  ])('reports a %s password', (_case, password, problems) => {
    expect(findPasswordProblems(password)).toEqual(problems);
  });

  it('refuses passwords too similar to the email or the names', () => {
    expect(findPasswordProblems('maria.petrova', { email: 'maria.petrova@mail.ru' })).toEqual([
      'The password is too similar to the email address.',
    ]);
    expect(findPasswordProblems('Konstantinov1', { lastName: 'Konstantinov' })).toEqual([
      'The password is too similar to the last name.',
    ]);
    expect(
      findPasswordProblems('Sunny-Harbour-7', { email: 'maria.petrova@mail.ru', firstName: 'Maria' }),
    ).toEqual([]);
  });

  it('measures similarity as 2·(longest common run)/(total length)', () => {
    expect(similarity('abc', 'abc')).toBe(1);
    expect(similarity('abcd', 'xyz')).toBe(0);
    expect(similarity('abcdef', 'abcxyz')).toBe(0.5);
    expect(similarity('', 'abc')).toBe(0);
  });
});
