import { Typography, type BoxProps } from '@mantine/core';
import classes from './RichText.module.css';

/** Card item content: HTML the server has already sanitised against its allow-list. */
export function RichText({ html, id, ...props }: { html: string; id?: string } & BoxProps) {
  return (
    <Typography className={classes.content} {...props}>
      <div id={id} dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
